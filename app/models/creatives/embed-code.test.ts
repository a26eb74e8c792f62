import { describe, expect, it } from "vitest";
import { buildEmbedCode, escapeHtml, fillCaption } from "./embed-code";

describe("escapeHtml", () => {
  it.each([
    ["plain", "plain"],
    [`a "quoted" <b>tag</b> & 'more'`, "a &quot;quoted&quot; &lt;b&gt;tag&lt;/b&gt; &amp; &#39;more&#39;"],
    ["&amp;", "&amp;amp;"],
  ])("%s", (input, output) => {
    expect(escapeHtml(input)).toBe(output);
  });
});

describe("buildEmbedCode", () => {
  const base = {
    href: "https://app.example/r/shop/ANNA?to=%2Fproducts%2Fhat",
    src: "https://app.example/creative-files/s1/abc-banner.png",
    alt: "Summer sale",
  };

  it("links the image through the tracked link with its size", () => {
    expect(buildEmbedCode({ ...base, width: 1200, height: 628 })).toBe(
      '<a href="https://app.example/r/shop/ANNA?to=%2Fproducts%2Fhat" target="_blank" rel="noopener">' +
        '<img src="https://app.example/creative-files/s1/abc-banner.png" alt="Summer sale" width="1200" height="628" style="max-width:100%;height:auto"></a>',
    );
  });

  it("leaves the size out when it is not known", () => {
    expect(buildEmbedCode({ ...base, width: null, height: 10 })).not.toContain("width=");
  });

  it("escapes every value so none can leave its attribute", () => {
    const code = buildEmbedCode({
      href: 'https://x.example/?a=1&b="><script>alert(1)</script>',
      src: "https://x.example/i.png'onerror='alert(1)",
      alt: '"><img src=x onerror=alert(1)>',
    });
    expect(code).not.toContain("<script");
    expect(code).not.toContain("'onerror");
    expect(code).toContain('href="https://x.example/?a=1&amp;b=&quot;&gt;&lt;script&gt;');
    expect(code).toContain('alt="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    // Exactly the two tags we wrote, whatever the values held.
    expect(code.match(/</g)).toHaveLength(3);
  });
});

describe("fillCaption", () => {
  it.each([
    ["Shop now: {link}", "Shop now: https://l.example/r/a/B"],
    ["{link} and again {link}", "https://l.example/r/a/B and again https://l.example/r/a/B"],
    ["Shop now: {{link}}", "Shop now: https://l.example/r/a/B"],
    ["{{ link }} and {link}", "https://l.example/r/a/B and https://l.example/r/a/B"],
    ["A $& in the text: {{link}}", "A $& in the text: https://l.example/r/a/B"],
    ["No link here", "No link here"],
  ])("%s", (body, out) => {
    expect(fillCaption(body, "https://l.example/r/a/B")).toBe(out);
  });
});
