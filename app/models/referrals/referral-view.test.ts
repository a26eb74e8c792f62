import { describe, expect, it } from "vitest";
import { orderLink, orderNumber, parseChecks, rewardAmount, rewardState } from "./referral-view";

describe("rewardAmount", () => {
  it.each([
    [
      { rewardKind: "discount_code", rewardValue: 1000, rewardCurrency: "EUR" },
      { type: "money", amount: 1000, currency: "EUR" },
    ],
    [
      { rewardKind: "discount_code", rewardValue: 1500, rewardCurrency: "%" },
      { type: "percent", basisPoints: 1500 },
    ],
    [
      { rewardKind: "discount_code", rewardValue: 250, rewardCurrency: "" },
      { type: "percent", basisPoints: 250 },
    ],
    [
      { rewardKind: "store_credit", rewardValue: 500, rewardCurrency: "USD" },
      { type: "money", amount: 500, currency: "USD" },
    ],
    [
      { rewardKind: "cash", rewardValue: 700, rewardCurrency: "JPY" },
      { type: "money", amount: 700, currency: "JPY" },
    ],
  ])("%o → %o", (row, amount) => {
    expect(rewardAmount(row)).toEqual(amount);
  });
});

describe("parseChecks", () => {
  it("keeps the well-formed checks and drops the rest", () => {
    const json = JSON.stringify([
      {
        rule: "self_referral",
        outcome: "block",
        detail: "checks.self_referral.same_email",
        values: { email: "a@b.c" },
      },
      { rule: "burst", outcome: "pass", detail: "checks.burst.pass" },
      { rule: "burst", outcome: "maybe", detail: "x" },
      "nonsense",
      null,
    ]);
    expect(parseChecks(json)).toEqual([
      {
        rule: "self_referral",
        outcome: "block",
        detail: "checks.self_referral.same_email",
        values: { email: "a@b.c" },
      },
      { rule: "burst", outcome: "pass", detail: "checks.burst.pass" },
    ]);
  });

  it.each([["{"], ['{"rule":"x"}'], [""], [null], [undefined]])("reads %s as no checks", (json) => {
    expect(parseChecks(json)).toEqual([]);
  });
});

describe("rewardState", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const later = new Date("2026-03-20T00:00:00Z");
  const earlier = new Date("2026-03-01T00:00:00Z");
  it.each([
    ["pending", later, null, "waiting"],
    ["pending", earlier, null, "due"],
    ["rewarded", earlier, earlier, "given"],
    ["blocked", later, null, "withheld"],
    ["cancelled", later, null, "cancelled"],
  ] as const)("%s, hold until %s → %s", (status, holdUntil, rewardedAt, state) => {
    expect(rewardState({ status, holdUntil, rewardedAt }, now)).toBe(state);
  });
});

describe("orderNumber", () => {
  it.each([
    ["gid://shopify/Order/5551234", "5551234"],
    ["gid://shopify/Order/", null],
    ["gid://shopify/Customer/1", null],
    ["5551234", null],
  ])("%s → %s", (gid, id) => {
    expect(orderNumber(gid)).toBe(id);
  });
});

describe("orderLink", () => {
  const shop = { role: "admin", domain: "north-shop.myshopify.com" };
  it.each([
    ["embedded", "55", "s1", "shopify://admin/orders/55"],
    ["embedded", null, "s1", "/admin/sales/s1"],
    ["standalone", "55", "s1", "/admin/sales/s1"],
    ["standalone", "55", null, "https://admin.shopify.com/store/north-shop/orders/55"],
    ["standalone", null, null, null],
  ] as const)("%s, order %s, sale %s → %s", (mode, number, saleId, link) => {
    expect(orderLink({ number, saleId }, { ...shop, mode })).toBe(link);
  });
});
