import { describe, expect, it } from "vitest";
import { canTransition, isPayoutMethod, isSendingMethod, openKeyOf, PAYOUT_STATUSES } from "./payout-states";

describe("payout transitions", () => {
  it.each([
    ["pending", "processing", true],
    ["pending", "paid", true],
    ["pending", "cancelled", true],
    ["pending", "failed", false],
    ["processing", "paid", true],
    ["processing", "failed", true],
    ["processing", "cancelled", true],
    ["processing", "pending", false],
    ["paid", "failed", false],
    ["paid", "pending", false],
    ["failed", "paid", false],
    ["failed", "pending", false],
    ["cancelled", "pending", false],
    ["pending", "nonsense", false],
    ["nonsense", "paid", false],
  ])("%s → %s: %s", (from, to, expected) => {
    expect(canTransition(from, to)).toBe(expected);
  });

  it("ends in paid, failed and cancelled", () => {
    const final = PAYOUT_STATUSES.filter((s) => PAYOUT_STATUSES.every((t) => !canTransition(s, t)));
    expect(final).toEqual(["paid", "failed", "cancelled"]);
  });

  it.each([
    ["paypal", true, true],
    ["store_credit", true, true],
    ["discount_code", true, true],
    ["manual", true, false],
    ["csv", true, false],
  ] as const)("%s is a method (%s) that sends (%s)", (method, known, sends) => {
    expect(isPayoutMethod(method)).toBe(known);
    expect(isSendingMethod(method)).toBe(sends);
  });

  it("refuses unknown methods and keys one pending payout per affiliate and currency", () => {
    expect(isPayoutMethod("cheque")).toBe(false);
    expect(openKeyOf("aff1", "EUR")).toBe("aff1:EUR");
  });
});
