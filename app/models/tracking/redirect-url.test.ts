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

  // Settings > Promote link, "apply the affiliate's discount": Shopify's
  // shareable discount path, the plain link as its URL-encoded redirect.
  it.each([
    ["/", "JANE10", "c1", "https://shop.example/discount/JANE10?redirect=%2F%3Fref%3DJANE%26_aff_click%3Dc1"],
    [
      "/products/x?variant=1&utm_source=news",
      "JANE10",
      "c1",
      "https://shop.example/discount/JANE10?redirect=%2Fproducts%2Fx%3Fvariant%3D1%26utm_source%3Dnews%26ref%3DJANE%26_aff_click%3Dc1",
    ],
    // An encoded value in the path's query is encoded once more (Shopify decodes the redirect once).
    [
      "/search?q=a%20b",
      "JANE10",
      null,
      "https://shop.example/discount/JANE10?redirect=%2Fsearch%3Fq%3Da%2520b%26ref%3DJANE",
    ],
    // Codes with spaces, "%", "/", "?", "#" and non-ASCII letters stay one path segment.
    [
      "/",
      "10% OFF/ME?#",
      "c1",
      "https://shop.example/discount/10%25%20OFF%2FME%3F%23?redirect=%2F%3Fref%3DJANE%26_aff_click%3Dc1",
    ],
    ["/", "ÉTÉ", null, "https://shop.example/discount/%C3%89T%C3%89?redirect=%2F%3Fref%3DJANE"],
    // An earlier referral or click parameter is dropped, the fragment kept (inside the redirect).
    [
      "/p?ref=OTHER&_aff_click=old&x=1#reviews",
      "JANE10",
      "c1",
      "https://shop.example/discount/JANE10?redirect=%2Fp%3Fx%3D1%26ref%3DJANE%26_aff_click%3Dc1%23reviews",
    ],
    // The open-redirect rules hold for the redirect too.
    ["//evil.com", "JANE10", "c1", "https://shop.example/discount/JANE10?redirect=%2F%3Fref%3DJANE%26_aff_click%3Dc1"],
    // No code created in Shopify yet: the plain link.
    ["/p?x=1", null, "c1", "https://shop.example/p?x=1&ref=JANE&_aff_click=c1"],
    ["/p?x=1", "", "c1", "https://shop.example/p?x=1&ref=JANE&_aff_click=c1"],
  ])("%j with discount %j", (path, discount, clickId, expected) => {
    expect(buildRedirectUrl("shop.example", path, "ref", "JANE", clickId, discount)).toBe(expected);
  });

  it("a discount link's redirect decodes back to the plain link's path and query", () => {
    const plain = new URL(buildRedirectUrl("shop.example", "/p?a=1&b=%26#h", "ref", "JANE", "c_1-x"));
    const link = new URL(buildRedirectUrl("shop.example", "/p?a=1&b=%26#h", "ref", "JANE", "c_1-x", "J 10"));
    expect(link.pathname).toBe("/discount/J%2010");
    expect(link.searchParams.get("redirect")).toBe(plain.pathname + plain.search + plain.hash);
  });

  it("shopHomeUrl is the storefront root", () => {
    expect(shopHomeUrl("shop.example")).toBe("https://shop.example/");
  });
});
