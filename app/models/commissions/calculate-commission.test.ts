import { english } from "../../../tests/support/explanations";
import { describe, expect, it } from "vitest";
import { calculateCommissions, percentOf, type CampaignTerms, type CommissionInput } from "./calculate-commission";

describe("percentOf (half-up per line)", () => {
  it.each([
    // [amount minor, basis points, expected]
    [10000, 1000, 1000], // 10 % of $100.00
    [999, 1000, 100], // 99.9 -> 100
    [995, 1000, 100], // 99.5 -> 100 (half up)
    [994, 1000, 99], // 99.4 -> 99
    [5, 1000, 1], // 0.5 -> 1
    [4, 1000, 0], // 0.4 -> 0
    [0, 1000, 0],
    [12345, 0, 0],
    [12345, 10000, 12345], // 100 %
    [333, 3333, 111], // 110.9889 -> 111
    [1, 5000, 1], // 0.5 -> 1
    [3, 5000, 2], // 1.5 -> 2
  ])("%i at %i bps = %i", (amount, bps, expected) => {
    expect(percentOf(amount, bps)).toBe(expected);
  });

  it("refuses fractions and negatives", () => {
    expect(() => percentOf(1.5, 100)).toThrow(TypeError);
    expect(() => percentOf(100, 12.5)).toThrow(TypeError);
    expect(() => percentOf(-1, 100)).toThrow(RangeError);
  });
});

const P1 = "gid://shopify/Product/1";
const P2 = "gid://shopify/Product/2";
const P3 = "gid://shopify/Product/3";
const C1 = "gid://shopify/Collection/10";

function campaign(over: Partial<CampaignTerms> = {}): CampaignTerms {
  return { commissionType: "percent", commissionValue: 1000, newCustomerValue: null, rules: [], levels: [], ...over };
}

function order(over: Partial<CommissionInput> = {}): CommissionInput {
  return {
    currency: "USD",
    isNewCustomer: false,
    chain: ["A"],
    lines: [
      { id: "l1", productGid: P1, quantity: 1, amount: 8999 },
      { id: "l2", productGid: P2, quantity: 2, amount: 5000 },
      { id: "l3", productGid: P3, quantity: 1, amount: 1001 },
    ],
    ...over,
  };
}

const amountsOf = (terms: CampaignTerms, input: CommissionInput) =>
  calculateCommissions(terms, input).lines.map((l) => [l.affiliateId, l.level, l.amount]);

describe("calculateCommissions", () => {
  it.each<[string, CampaignTerms, Partial<CommissionInput>, (string | number)[][]]>([
    // basis 15000: 10 % = 1500
    ["percent of sale", campaign(), {}, [["A", 1, 1500]]],
    // 12.5 % of 15000 = 1875
    ["fractional percent", campaign({ commissionValue: 1250 }), {}, [["A", 1, 1875]]],
    // three order lines of 0.05 at 10 %: 0.015 in all -> 0.02, rounded once per
    // commission line (rounding each order line first would give 0.03)
    [
      "rounds once per commission line, not per order line",
      campaign(),
      {
        lines: [
          { id: "a", productGid: P1, quantity: 1, amount: 5 },
          { id: "b", productGid: P2, quantity: 1, amount: 5 },
          { id: "c", productGid: P3, quantity: 1, amount: 5 },
        ],
      },
      [["A", 1, 2]],
    ],
    [
      "half-up at exactly .5",
      campaign({ commissionValue: 5000 }),
      { lines: [{ id: "l", productGid: P1, quantity: 1, amount: 3 }] },
      [["A", 1, 2]],
    ],
    [
      "rounds .4999 down",
      campaign({ commissionValue: 1 }),
      { lines: [{ id: "l", productGid: P1, quantity: 1, amount: 4999 }] },
      [["A", 1, 0]],
    ],
    // flat 2.50 per item × 4 items
    ["flat per item", campaign({ commissionType: "flat_item", commissionValue: 250 }), {}, [["A", 1, 1000]]],
    ["flat per order", campaign({ commissionType: "flat_order", commissionValue: 500 }), {}, [["A", 1, 500]]],
    // new customer 20 % of 15000
    ["new-customer rate", campaign({ newCustomerValue: 2000 }), { isNewCustomer: true }, [["A", 1, 3000]]],
    ["new-customer rate unused for returning customers", campaign({ newCustomerValue: 2000 }), {}, [["A", 1, 1500]]],
    // P1 at 20 %: 1799.8 + (5000+1001)×10 % = 600.1 -> 2399.9 -> 2400
    [
      "per-product rate",
      campaign({
        rules: [{ targetType: "product", targetGid: P1, kind: "rate", commissionType: "percent", value: 2000 }],
      }),
      {},
      [["A", 1, 2400]],
    ],
    // P2 flat 3.00 per item × 2 = 600, others 10 %: 899.9 + 100.1 = 1000 -> 1600
    [
      "per-product flat per item",
      campaign({
        rules: [{ targetType: "product", targetGid: P2, kind: "rate", commissionType: "flat_item", value: 300 }],
      }),
      {},
      [["A", 1, 1600]],
    ],
    // P1 excluded: 10 % of 6001 = 600.1 -> 600
    [
      "per-product exclusion",
      campaign({
        rules: [{ targetType: "product", targetGid: P1, kind: "exclude", commissionType: "percent", value: 0 }],
      }),
      {},
      [["A", 1, 600]],
    ],
    // P3 in collection C1 at 50 %: 500.5 + (8999+5000)×10 % = 1399.9 -> 1900.4 -> 1900
    [
      "per-collection rate",
      campaign({
        rules: [{ targetType: "collection", targetGid: C1, kind: "rate", commissionType: "percent", value: 5000 }],
      }),
      { collectionsByProduct: { [P3]: [C1] } },
      [["A", 1, 1900]],
    ],
    [
      "per-collection exclusion",
      campaign({
        rules: [{ targetType: "collection", targetGid: C1, kind: "exclude", commissionType: "percent", value: 0 }],
      }),
      { collectionsByProduct: { [P1]: [C1], [P2]: [C1] } },
      [["A", 1, 100]],
    ],
    // the product rule (5 %) beats the collection exclusion on P1: 449.95 + 600.1 = 1050.05 -> 1050
    [
      "a product rule beats a collection rule",
      campaign({
        rules: [
          { targetType: "collection", targetGid: C1, kind: "exclude", commissionType: "percent", value: 0 },
          { targetType: "product", targetGid: P1, kind: "rate", commissionType: "percent", value: 500 },
        ],
      }),
      { collectionsByProduct: { [P1]: [C1] } },
      [["A", 1, 1050]],
    ],
    // MLM: level 2 gets 3 % of the 15000 sale, level 3 gets 10 % of the 1500 direct commission
    [
      "three MLM levels",
      campaign({
        levels: [
          { level: 2, basis: "percent_of_sale", rate: 300 },
          { level: 3, basis: "percent_of_commission", rate: 1000 },
        ],
      }),
      { chain: ["A", "B", "C"] },
      [
        ["A", 1, 1500],
        ["B", 2, 450],
        ["C", 3, 150],
      ],
    ],
    [
      "a missing upline earns nothing, the next level still does",
      campaign({
        levels: [
          { level: 2, basis: "percent_of_sale", rate: 300 },
          { level: 3, basis: "percent_of_sale", rate: 100 },
        ],
      }),
      { chain: ["A", null, "C"] },
      [
        ["A", 1, 1500],
        ["C", 3, 150],
      ],
    ],
    ["no levels configured: only level 1", campaign(), { chain: ["A", "B"] }, [["A", 1, 1500]]],
    // flat per order shrinks with what is left of the order: 500 × 7500/15000
    [
      "flat per order after a partial refund",
      campaign({ commissionType: "flat_order", commissionValue: 500 }),
      { originalBasis: 15000, lines: [{ id: "l", productGid: P1, quantity: 1, amount: 7500 }] },
      [["A", 1, 250]],
    ],
    [
      "nothing left after a full refund",
      campaign({ commissionType: "flat_order", commissionValue: 500 }),
      { originalBasis: 15000, lines: [] },
      [["A", 1, 0]],
    ],
    [
      "zero-quantity lines count for nothing",
      campaign(),
      { lines: [{ id: "l", productGid: P1, quantity: 0, amount: 0 }] },
      [["A", 1, 0]],
    ],
  ])("%s", (_name, terms, input, expected) => {
    expect(amountsOf(terms, order(input))).toEqual(expected);
  });

  it("explains each line in plain words", () => {
    const result = calculateCommissions(
      campaign({
        rules: [{ targetType: "product", targetGid: P3, kind: "exclude", commissionType: "percent", value: 0 }],
        levels: [{ level: 2, basis: "percent_of_commission", rate: 1000 }],
      }),
      order({ chain: ["A", "B"] }),
    );
    expect(result.basis).toBe(13999);
    expect(english(result.lines[0]!.explanation)).toBe(
      "10% (campaign rate) on $139.99; $10.01 of excluded products left out",
    );
    expect(english(result.lines[1]!.explanation)).toBe("Level 2: 10% of the $14.00 direct commission");
  });
});
