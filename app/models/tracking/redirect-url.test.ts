import { describe, expect, it } from "vitest";
import { buildRedirectUrl, isMyshopifyDomain, safeLandingPath, shopHost, shopHomeUrl } from "./redirect-url";

describe("safeLandingPath", () => {
  it.each([
    [undefined, "/"],
    [null, "/"],
    ["", "/"],
    ["/", "/"],
    ["/products/x", "/products/x"],
    ["/products/x?variant=1&q=a%20b", "/products/x?variant=1&q=a%20b"],
    ["/collections/all#top", "/collections/all#top"],
    ["/%2F%2Fevil.com", "/%2F%2Fevil.com"], // a path segment on the shop, not a host
    ["//evil.com", "/"],
    ["///evil.com", "/"],
    ["/a//b", "/"],
    ["https://evil.com", "/"],
    ["http://evil.com/x", "/"],
    ["javascript:alert(1)", "/"],
    ["/\\evil.com", "/"],
    ["\\\\evil.com", "/"],
    ["/\t/evil.com", "/"],
    ["/\n/evil.com", "/"],
    ["/ x", "/"],
    ["products/x", "/"],
    ["evil.com", "/"],
    ["/" + "a".repeat(2048), "/"],
  ])("%j gives %j", (to, expected) => {
    expect(safeLandingPath(to)).toBe(expected);
  });
});

describe("shopHost", () => {
  it.each([
    [{ domain: "a.myshopify.com", url: "https://shop.example" }, "shop.example"],
    [{ domain: "a.myshopify.com", url: "https://shop.example/" }, "shop.example"],
    [{ domain: "a.myshopify.com", url: "https://a.myshopify.com" }, "a.myshopify.com"],
    [{ domain: "a.myshopify.com", url: "" }, "a.myshopify.com"],
    [{ domain: "a.myshopify.com", url: "not a url" }, "a.myshopify.com"],
    [{ domain: "a.myshopify.com", url: "javascript:alert(1)" }, "a.myshopify.com"],
    [{ domain: "a.myshopify.com", url: "https://user:pw@evil.example" }, "a.myshopify.com"],
  ])("%j gives %j", (shop, expected) => {
    expect(shopHost(shop)).toBe(expected);
  });
});

describe("isMyshopifyDomain", () => {
  it.each([
    ["demo-store.myshopify.com", true],
    ["Demo-Store.myshopify.com", true],
    ["evil.com", false],
    ["a.myshopify.com.evil.com", false],
    ["-x.myshopify.com", false],
    ["", false],
    [null, false],
  ])("%j is %j", (value, expected) => {
    expect(isMyshopifyDomain(value)).toBe(expected);
  });
});

describe("buildRedirectUrl", () => {
  it.each([
    ["/", "ref", "JANE", "c1", "https://shop.example/?ref=JANE&_aff_click=c1"],
    ["/products/x", "ref", "JANE", "c1", "https://shop.example/products/x?ref=JANE&_aff_click=c1"],
    [
      "/products/x?variant=1&q=a%20b",
      "ref",
      "JANE",
      "c1",
      "https://shop.example/products/x?variant=1&q=a%20b&ref=JANE&_aff_click=c1",
    ],
    ["/p?ref=OTHER&_aff_click=old&x=1", "ref", "JANE", "c1", "https://shop.example/p?x=1&ref=JANE&_aff_click=c1"],
    ["/p#reviews", "ref", "JANE", "c1", "https://shop.example/p?ref=JANE&_aff_click=c1#reviews"],
    ["/p?", "aff", "JANE", null, "https://shop.example/p?aff=JANE"],
    ["//evil.com", "ref", "JANE", "c1", "https://shop.example/?ref=JANE&_aff_click=c1"],
    ["/x", "a b", "JANE", "c1", "https://shop.example/x?a%20b=JANE&_aff_click=c1"],
  ])("%j with %s=%s", (path, param, code, clickId, expected) => {
    expect(buildRedirectUrl("shop.example", path, param, code, clickId)).toBe(expected);
  });

  it("shopHomeUrl is the storefront root", () => {
    expect(shopHomeUrl("shop.example")).toBe("https://shop.example/");
  });
});
