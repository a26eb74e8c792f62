import { describe, expect, it } from "vitest";
import { checkTemplate, htmlToText, paragraphs, renderTemplate } from "./liquid-template";

describe("checkTemplate", () => {
  it.each([
    ["Hi {{ name }}", null],
    ["Hi\n\n{% if name %}", 3],
    ["Hi\n{{ name | nosuchfilter }}", 2],
    ["Hi {{ nmae }}", 1],
  ])("%j → problem on line %s", async (source, line) => {
    const problem = await checkTemplate(source, { name: "Jane" });
    if (line === null) expect(problem).toBeNull();
    else expect(problem?.line).toBe(line);
  });

  it("has no file system: include and render find nothing", async () => {
    expect(await checkTemplate("{% include '/etc/passwd' %}", {})).not.toBeNull();
    expect(await checkTemplate("{% render 'x' %}", {})).not.toBeNull();
  });
});

describe("renderTemplate", () => {
  it("escapes values in the HTML part, keeps them as they are in the text part", async () => {
    const out = await renderTemplate("Hi {{ n }}", "Dear {{ n }},\n\n<b>welcome</b> https://x.example/a?b=1&c=2", {
      n: "<Jo & Al>",
    });
    expect(out.subject).toBe("Hi <Jo & Al>");
    expect(out.bodyHtml).toContain("Dear &lt;Jo &amp; Al&gt;,");
    expect(out.bodyHtml).toContain('<a href="https://x.example/a?b=1&c=2">');
    expect(out.text).toBe("Dear <Jo & Al>,\n\nwelcome https://x.example/a?b=1&c=2");
  });
});

describe("htmlToText and paragraphs", () => {
  it.each([
    ['<a href="https://a.example">here</a>', "here (https://a.example)"],
    ['<a href="https://a.example">https://a.example</a>', "https://a.example"],
    ["a<br>b &amp; c", "a\nb & c"],
    // Every entity, named and numeric, decimal and hex.
    ["&#34;quoted&#34; &#39;single&#39;", "\"quoted\" 'single'"],
    ["caf&eacute;&nbsp;&euro;5 &copy; &hellip;", "café\u00a0€5 © …"],
    ["&#x27;hex&#X22; &#8364; &#128512;", "'hex\" € 😀"],
    // Decoded after the tags are gone: an escaped tag is text.
    ["&lt;b&gt;not bold&lt;/b&gt; &amp;amp;", "<b>not bold</b> &amp;"],
    ["AT&T &unknown; & done", "AT&T &unknown; & done"],
  ])("%j → %j", (html, text) => expect(htmlToText(html)).toBe(text));

  it("gives the text part of a rendered value with quotes in plain characters", async () => {
    const parts = await renderTemplate("Hi", "Say {{ words }} & go", { words: '"hello" <3 it\'s' });
    expect(parts.text).toBe('Say "hello" <3 it\'s & go');
    expect(parts.bodyHtml).toContain("&#34;hello&#34; &lt;3");
  });

  it("makes a paragraph of each block and a line break of each single newline", () => {
    expect(paragraphs("one\ntwo\n\nthree")).toBe("<p>one<br>\ntwo</p>\n<p>three</p>");
  });
});
