import { describe, expect, it } from "vitest";
import { canCommissionTransition, commissionFromStates, COMMISSION_STATUSES, voidsOnCancel } from "./commission-states";

describe("commission line transitions", () => {
  it.each([
    ["pending", "approved", true],
    ["pending", "denied", true],
    ["pending", "void", true],
    ["pending", "paid", false],
    ["approved", "paid", true],
    ["approved", "void", true],
    ["approved", "denied", false],
    ["approved", "pending", false],
    ["paid", "void", false],
    ["paid", "approved", false],
    ["denied", "approved", false],
    ["void", "approved", false],
    ["nonsense", "approved", false],
  ] as const)("%s → %s: %s", (from, to, expected) => {
    expect(canCommissionTransition(from, to)).toBe(expected);
  });

  it("ends in denied, paid and void", () => {
    const final = COMMISSION_STATUSES.filter((s) => COMMISSION_STATUSES.every((t) => !canCommissionTransition(s, t)));
    expect(final).toEqual(["denied", "paid", "void"]);
  });

  it("names the states each change starts from", () => {
    expect(commissionFromStates("void")).toEqual(["pending", "approved"]);
    expect(commissionFromStates("paid")).toEqual(["approved"]);
    expect(commissionFromStates("approved")).toEqual(["pending"]);
  });

  it.each([
    ["pending", null, true],
    ["approved", null, true],
    ["approved", "pending", true],
    ["approved", "processing", false],
    ["approved", "paid", false],
    ["paid", "paid", false],
    ["denied", null, false],
    ["void", null, false],
  ])("a %s line in a %s payout is voided by a cancellation: %s", (status, payoutStatus, expected) => {
    expect(voidsOnCancel({ status, payoutStatus })).toBe(expected);
  });
});
