import { describe, expect, it } from "vitest";
import { isExternalUrl, outboundLinkProps } from "./external-links";

describe("outboundLinkProps", () => {
  it.each([
    ["https://apps.shopify.com/", false, { target: "_blank", rel: "noopener noreferrer" }],
    ["HTTP://example.com/x", false, { target: "_blank", rel: "noopener noreferrer" }],
    ["//cdn.example.com/a.png", false, { target: "_blank", rel: "noopener noreferrer" }],
    [" https://padded.example/", false, { target: "_blank", rel: "noopener noreferrer" }],
    ["/portal/demo/", true, { target: "_blank", rel: "noopener noreferrer" }],
    ["/admin/campaigns", false, {}],
    ["campaigns", false, {}],
    ["#instructions", false, {}],
    ["mailto:help@example.com", false, {}],
    ["mailto:help@example.com", true, {}],
    ["tel:+4930123", false, {}],
  ])("%s (external=%s)", (url, external, expected) => {
    expect(outboundLinkProps(url, external)).toEqual(expected);
  });

  it("does not take an app path that merely contains a URL for an external one", () => {
    expect(isExternalUrl("/r/CODE?to=https://x.example")).toBe(false);
  });
});
