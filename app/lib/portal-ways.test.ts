import { describe, expect, it } from "vitest";
import { normalizeHostName, pagesBase, rewritePortalPath, shopHandle } from "./portal-ways";
import { affiliateLink, storePathOf } from "./affiliate-links";

describe("rewritePortalPath", () => {
  it.each([
    ["proxy", "/proxy", "/portal/demo/"],
    ["proxy", "/proxy/", "/portal/demo/"],
    ["proxy", "/proxy/signup", "/portal/demo/signup"],
    ["proxy", "/proxy/click", null],
    ["proxy", "/proxy/referrals/widget", null],
    ["proxy", "/proxy/referrals/account", null],
    ["proxy", "/proxyx", null],
    ["proxy", "/account", null],
    ["custom", "/", "/portal/demo/"],
    ["custom", "/signup", "/portal/demo/signup"],
    ["custom", "/login", "/portal/demo/login"],
    ["custom", "/reset", "/portal/demo/reset"],
    ["custom", "/account/sales", null],
    ["custom", "/r/CODE", null],
    ["custom", "/admin/dashboard", null],
  ] as const)("%s %s -> %s", (way, path, to) => {
    expect(rewritePortalPath(way, "demo", path)).toBe(to);
  });
});

describe("portal ways", () => {
  it("puts the pages under the right base", () => {
    expect(pagesBase("app", "demo")).toBe("/portal/demo");
    expect(pagesBase("custom", "demo")).toBe("");
    expect(pagesBase("proxy", "demo", "/apps/partners")).toBe("/apps/partners");
    expect(pagesBase("proxy", "demo", "/evil/../x")).toBe("/apps/affiliate");
    expect(shopHandle("Demo-Store.myshopify.com")).toBe("demo-store");
  });

  it.each([
    ["affiliates.example.com", "affiliates.example.com"],
    ["https://Affiliates.Example.com/path", "affiliates.example.com"],
    ["localhost", null],
    ["x.myshopify.com", null],
    ["bad_host.example.com", null],
    ["-x.example.com", null],
    ["", null],
  ])("normalizeHostName(%s) -> %s", (raw, host) => {
    expect(normalizeHostName(raw)).toBe(host);
  });
});

describe("affiliate links", () => {
  it("builds the short link with the landing path and the shop", () => {
    expect(affiliateLink("https://app.example", "NORA", "s.myshopify.com")).toBe("https://app.example/r/s/NORA");
    expect(affiliateLink("https://app.example/", "NORA", "s.myshopify.com", "/products/x?v=1")).toBe(
      "https://app.example/r/s/NORA?to=%2Fproducts%2Fx%3Fv%3D1",
    );
  });

  it.each([
    ["/products/tee", "/products/tee"],
    ["https://shop.example/products/tee?color=red", "/products/tee?color=red"],
    ["shop.example/collections/all", "/collections/all"],
    ["https://s.myshopify.com/pages/about", "/pages/about"],
    ["https://evil.example/products/tee", null],
    ["//evil.example/x", null],
    ["javascript:alert(1)", null],
    ["", null],
  ])("storePathOf(%s) -> %s", (input, path) => {
    expect(storePathOf(input, ["shop.example", "s.myshopify.com"])).toBe(path);
  });
});
