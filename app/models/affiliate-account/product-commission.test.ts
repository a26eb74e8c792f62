import { describe, expect, it } from "vitest";
import type { CampaignTerms } from "../commissions/calculate-commission";
import { productCommission } from "./product-commission";

const P = "gid://shopify/Product/1";
const C = "gid://shopify/Collection/9";

const campaign = (over: Partial<CampaignTerms> = {}): CampaignTerms => ({
  commissionType: "percent",
  commissionValue: 1_000, // 10 %
  newCustomerValue: null,
  rules: [],
  levels: [],
  ...over,
});

describe("productCommission", () => {
  it.each<[string, CampaignTerms, number | null, readonly string[], ReturnType<typeof productCommission>]>([
    ["the campaign rate", campaign(), 3_900, [], { amount: 390, newCustomerAmount: null, excluded: false }],
    [
      "a new-customer rate beside it",
      campaign({ newCustomerValue: 1_500 }),
      16_800,
      [],
      { amount: 1_680, newCustomerAmount: 2_520, excluded: false },
    ],
    [
      "the product's own rule",
      campaign({
        rules: [{ targetType: "product", targetGid: P, kind: "rate", commissionType: "flat_item", value: 500 }],
      }),
      3_900,
      [],
      { amount: 500, newCustomerAmount: null, excluded: false },
    ],
    [
      "its collection's rule",
      campaign({
        rules: [{ targetType: "collection", targetGid: C, kind: "rate", commissionType: "percent", value: 2_000 }],
      }),
      4_500,
      [C],
      { amount: 900, newCustomerAmount: null, excluded: false },
    ],
    [
      "an excluded collection",
      campaign({
        rules: [{ targetType: "collection", targetGid: C, kind: "exclude", commissionType: "percent", value: 0 }],
      }),
      4_500,
      [C],
      { amount: 0, newCustomerAmount: null, excluded: true },
    ],
    [
      "a flat amount per order",
      campaign({ commissionType: "flat_order", commissionValue: 700 }),
      18_900,
      [],
      { amount: 700, newCustomerAmount: null, excluded: false },
    ],
    ["no price yet", campaign(), null, [], { amount: null, newCustomerAmount: null, excluded: false }],
  ])("%s", (_name, terms, price, collections, expected) => {
    expect(productCommission(terms, { gid: P, price, collectionGids: collections }, "USD")).toEqual(expected);
  });
});
