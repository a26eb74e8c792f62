import { describe, expect, it } from "vitest";
import { impliedContractKey, impliedOrigin, isImpliedContract } from "./implied-contract";

const C = "gid://shopify/Customer/7";
const P1 = "gid://shopify/Product/1";
const P2 = "gid://shopify/Product/2";
const SP = "gid://shopify/SellingPlan/9";

describe("impliedContractKey", () => {
  const key = (customer: string | null, productGids: string[], sellingPlanGids: string[] = []) =>
    impliedContractKey(customer, { productGids, sellingPlanGids });
  it("is one short key per customer and what they subscribe to", () => {
    expect(key(C, [P1, P2])).toMatch(/^implied\|[0-9a-f]{64}$/);
    // Products in any order, and repeated, are the same subscription.
    expect(key(C, [P2, P1, P2])).toBe(key(C, [P1, P2]));
    expect(key(C, [P1])).not.toBe(key(C, [P1, P2]));
    expect(key("gid://shopify/Customer/8", [P1])).not.toBe(key(C, [P1]));
    // The selling plan, when the payload has it, wins over the products.
    expect(key(C, [P1], [SP])).toBe(key(C, [P2], [SP]));
    expect(key(C, [P1], [SP])).not.toBe(key(C, [P1]));
    // It names no customer.
    expect(key(C, [P1])).not.toContain("Customer");
    const many = Array.from({ length: 200 }, (_, i) => `gid://shopify/Product/${1000000 + i}`);
    expect(key(C, many)!.length).toBe(72);
  });

  it.each([
    ["no customer", null, [P1]],
    ["nothing to follow", C, []],
  ])("%s: none", (_name, customer, products) => {
    expect(key(customer, products)).toBeNull();
  });

  it.each([
    [impliedContractKey(C, { productGids: [P1], sellingPlanGids: [] }), true],
    ["gid://shopify/SubscriptionContract/5", false],
    [null, false],
  ])("isImpliedContract(%s)", (key, expected) => {
    expect(isImpliedContract(key)).toBe(expected);
  });
});

describe("impliedOrigin", () => {
  const at = (day: number) => new Date(Date.UTC(2026, 0, day));
  const order = (gid: string, day: number, productGids: string[], sellingPlanGids: string[] = []) => ({
    gid,
    placedAt: at(day),
    affiliateId: "anna",
    productGids,
    sellingPlanGids,
  });
  const renewal = (day: number, productGids: string[], sellingPlanGids: string[] = []) => ({
    placedAt: at(day),
    productGids,
    sellingPlanGids,
  });
  it.each([
    [
      "the earliest order that held the products",
      [order("b", 5, [P1]), order("a", 3, [P1, P2])],
      renewal(20, [P1]),
      "a",
    ],
    ["not one without them", [order("a", 3, [P2]), order("b", 5, [P1])], renewal(20, [P1]), "b"],
    ["not one placed after the renewal", [order("a", 25, [P1])], renewal(20, [P1]), null],
    [
      "the one with the renewal's selling plan",
      [order("a", 3, [P1], ["gid://shopify/SellingPlan/1"]), order("b", 5, [P1], [SP])],
      renewal(20, [P1], [SP]),
      "b",
    ],
    ["a first order from before selling plans were sent", [order("a", 3, [P1])], renewal(20, [P1], [SP]), "a"],
    ["none", [], renewal(20, [P1]), null],
  ])("%s", (_name, candidates, wanted, expected) => {
    expect(impliedOrigin(candidates, wanted)?.gid ?? null).toBe(expected);
  });
});
