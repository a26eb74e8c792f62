import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { forAffiliate } from "./reason-keys";

const en = (ns: string) =>
  JSON.parse(readFileSync(path.resolve(__dirname, `../../../public/locales/en/${ns}.json`), "utf8")) as Record<
    string,
    unknown
  >;

describe("forAffiliate", () => {
  it.each([
    ["Sales:attributionReason.coupon", "Account.Reasons:attributionReason.coupon"],
    ["Sales:explain.percent", "Account.Reasons:explain.percent"],
    ["Account.Sales:why", "Account.Sales:why"],
    ["attributionReason.coupon", "attributionReason.coupon"],
    ["Salesforce:x", "Salesforce:x"],
  ])("%s → %s", (key, moved) => {
    expect(forAffiliate(key)).toBe(moved);
  });

  it("finds every moved part in English as the merchant has it", () => {
    const sales = en("Sales");
    const reasons = en("Account.Reasons");
    for (const part of ["sources", "attributionReason", "explain", "autoApproveOn"])
      expect(reasons[part], part).toEqual(sales[part]);
  });
});
