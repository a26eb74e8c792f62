import { describe, expect, it } from "vitest";
import { affiliateLinks, shopHandle } from "./affiliate-links";

describe("affiliate links", () => {
  it.each([
    ["demo-store.myshopify.com", "demo-store"],
    ["Big-Shop.MyShopify.com", "big-shop"],
    ["custom.example.com", "custom.example.com"],
  ])("handle of %s is %s", (domain, handle) => {
    expect(shopHandle(domain)).toBe(handle);
  });

  it("builds landing, sign-up and login on the app domain", () => {
    expect(affiliateLinks("https://app.example.com/", "demo-store.myshopify.com")).toEqual({
      landing: "https://app.example.com/portal/demo-store/",
      signup: "https://app.example.com/portal/demo-store/signup",
      login: "https://app.example.com/portal/demo-store/login",
    });
  });
});
