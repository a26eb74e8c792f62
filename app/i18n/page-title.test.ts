import { describe, expect, it } from "vitest";
import { documentTitle, portalShopTitle, screenTitle, titleBrand, titleNamespace } from "./page-title";

const match = (handle: unknown, data: unknown = null, params: Record<string, string> = {}) => ({
  handle,
  data,
  params,
});
const ROOT = match({ i18n: ["Global"] }, { productName: "Affiliate & Referral" });
const SHELL = match({ i18n: ["Global", "TopMenu"] }, { shop: { name: "Acme" } });

describe("screenTitle", () => {
  it.each([
    ["no route names one", [ROOT], null],
    ["the deepest route's key", [ROOT, SHELL, match({ title: "Payouts:title" })], { key: "Payouts:title" }],
    [
      "a key chosen from the params",
      [
        ROOT,
        match({ title: ({ params }: { params: { id?: string } }) => `Campaigns:${params.id}` }, null, { id: "new" }),
      ],
      { key: "Campaigns:new" },
    ],
    [
      "the parent's when the child declines",
      [ROOT, match({ title: "Settings:title" }), match({ title: () => null })],
      { key: "Settings:title" },
    ],
    [
      "values from the loader data",
      [
        ROOT,
        match(
          {
            title: ({ data }: { data: { sale: { name: string } } }) => ({
              key: "Account.Sales:detailTitle",
              values: { name: data.sale.name },
            }),
          },
          { sale: { name: "#1001" } },
        ),
      ],
      { key: "Account.Sales:detailTitle", values: { name: "#1001" } },
    ],
  ])("%s", (_name, matches, expected) => {
    expect(screenTitle(matches as never)).toEqual(expected);
  });
});

describe("portalShopTitle", () => {
  const title = portalShopTitle("Account.Common:login.title");
  it("names the shop of the page and leaves out the brand, which would repeat it", () => {
    expect(typeof title === "function" && title({ params: {}, data: { chrome: { shopName: "Acme" } } })).toEqual({
      key: "Account.Common:login.title",
      values: { shop: "Acme" },
      brand: false,
    });
  });
  it("declines without a shop (the page's loader failed)", () => {
    expect(typeof title === "function" && title({ params: {}, data: undefined })).toBeNull();
  });
});

describe("titleBrand", () => {
  it.each([
    ["the app's name in the admin", [ROOT, SHELL, match({ title: "Sales:title" })], "Affiliate & Referral"],
    ["the shop's name in the account area", [ROOT, match({ portal: true }, { shop: { name: "Acme" } })], "Acme"],
    ["the shop's name on a portal page", [ROOT, match({ portal: true }, { chrome: { shopName: "Acme" } })], "Acme"],
    ["nothing on the affiliate side without a shop", [ROOT, match({ portal: true })], null],
  ])("%s", (_name, matches, expected) => {
    expect(titleBrand(matches as never, "Affiliate & Referral")).toBe(expected);
  });
});

describe("documentTitle and titleNamespace", () => {
  it.each([
    ["Payouts", "Affiliate & Referral", "Payouts · Affiliate & Referral"],
    [null, "Affiliate & Referral", "Affiliate & Referral"],
    ["Acme affiliate program", null, "Acme affiliate program"],
  ])("%s and %s make %s", (screen, brand, expected) => {
    expect(documentTitle(screen, brand)).toBe(expected);
  });
  it.each([
    ["Settings.Payment:title", "Settings.Payment"],
    ["title", "Global"],
  ])("%s is in %s", (key, ns) => {
    expect(titleNamespace(key)).toBe(ns);
  });
});
