import { describe, expect, it } from "vitest";
import { addMonths, matchContract, renewalPolicyOf, renewalVerdict, type RenewalPolicy } from "./renewal-policy";

const started = new Date("2026-01-31T10:00:00Z");
const at = (iso: string) => new Date(iso);
const own = { commissionType: "percent" as const, value: 500 };
const policy = (kind: RenewalPolicy["kind"], limit: number | null, rate: RenewalPolicy["rate"] = null) => ({
  kind,
  limit,
  rate,
});

describe("renewalVerdict", () => {
  it.each([
    ["no renewals", policy("none", null), 1, "2026-02-28T10:00:00Z", { pays: false, why: "none" }],
    ["5 orders: the first", policy("orders", 5), 1, "2026-02-28T10:00:00Z", { pays: true, rate: null }],
    ["5 orders: the third", policy("orders", 5, own), 3, "2026-04-30T10:00:00Z", { pays: true, rate: own }],
    ["5 orders: the fifth", policy("orders", 5), 5, "2026-06-30T10:00:00Z", { pays: true, rate: null }],
    ["5 orders: the sixth", policy("orders", 5), 6, "2026-07-31T10:00:00Z", { pays: false, why: "orders" }],
    ["0 orders", policy("orders", 0), 1, "2026-02-28T10:00:00Z", { pays: false, why: "orders" }],
    ["3 months: inside", policy("months", 3), 3, "2026-04-30T09:59:59Z", { pays: true, rate: null }],
    ["3 months: the last moment", policy("months", 3), 3, "2026-04-30T10:00:00Z", { pays: false, why: "months" }],
    ["3 months: after", policy("months", 3), 4, "2026-05-31T10:00:00Z", { pays: false, why: "months" }],
    ["for life", policy("lifetime", null, own), 120, "2036-01-31T10:00:00Z", { pays: true, rate: own }],
  ])("%s", (_name, p, renewal, placed, expected) => {
    expect(renewalVerdict(p, renewal, started, at(placed))).toEqual(expected);
  });
});

describe("addMonths", () => {
  it.each([
    ["2026-01-31T10:00:00Z", 1, "2026-02-28T10:00:00.000Z"],
    ["2026-01-31T10:00:00Z", 3, "2026-04-30T10:00:00.000Z"],
    ["2028-01-31T00:00:00Z", 1, "2028-02-29T00:00:00.000Z"],
    ["2026-11-15T00:00:00Z", 2, "2027-01-15T00:00:00.000Z"],
    ["2026-03-01T00:00:00Z", 0, "2026-03-01T00:00:00.000Z"],
  ])("%s + %i months", (from, months, expected) => {
    expect(addMonths(new Date(from), months).toISOString()).toBe(expected);
  });
});

describe("renewalPolicyOf", () => {
  const row = { renewalPolicy: "orders", renewalLimit: 5, renewalCommissionType: null, renewalCommissionValue: null };
  it.each([
    ["same rate", row, { kind: "orders", limit: 5, rate: null }],
    [
      "own rate",
      { ...row, renewalCommissionType: "flat_order", renewalCommissionValue: 250 },
      { kind: "orders", limit: 5, rate: { commissionType: "flat_order", value: 250 } },
    ],
    ["unknown kind pays nothing", { ...row, renewalPolicy: "forever" }, { kind: "none", limit: 5, rate: null }],
    [
      "unknown rate type is the campaign's",
      { ...row, renewalCommissionType: "flat_item", renewalCommissionValue: 250 },
      { kind: "orders", limit: 5, rate: null },
    ],
  ])("%s", (_name, input, expected) => {
    expect(renewalPolicyOf(input)).toEqual(expected);
  });
});

describe("matchContract", () => {
  const a = { id: "a", originProducts: ["p1", "p2"] };
  const b = { id: "b", originProducts: ["p3"] };
  it.each([
    ["the only contract", [a], ["p9"], "a"],
    ["the one whose first order held the products", [a, b], ["p3"], "b"],
    ["two fit: none", [a, { ...b, originProducts: ["p1"] }], ["p1"], null],
    ["none fit", [a, b], ["p9"], null],
    ["no contracts", [], ["p1"], null],
  ])("%s", (_name, contracts, products, expected) => {
    expect(matchContract(contracts, products)?.id ?? null).toBe(expected);
  });
});
