import { describe, expect, it } from "vitest";
import { orderVoidReason } from "./adjust-referral.server";
import { mayBeReferral, referralProgramEverSet, referralProgramOn } from "./referral-candidate";

describe("the webhook path's cheap referral filter", () => {
  it.each([
    [{ discount_codes: [{ code: "SAM" }], note_attributes: [] }, true],
    [{ discount_codes: [], note_attributes: [{ name: "_referral_invite", value: "abc123" }] }, true],
    [{ discount_codes: [], note_attributes: [{ name: "_referral_invite", value: "" }] }, false],
    [{ discount_codes: [], note_attributes: [{ name: "_affiliate_ref", value: "X" }] }, false],
  ])("mayBeReferral(%j) = %s", (order, expected) => {
    expect(mayBeReferral(order)).toBe(expected);
  });

  it("reads the program's switch from the settings blob without validating it", () => {
    expect(referralProgramOn('{"referrals":{"enabled":true}}')).toBe(true);
    expect(referralProgramOn('{"referrals":{"enabled":false}}')).toBe(false);
    expect(referralProgramOn("not json")).toBe(false);
    expect(referralProgramEverSet('{"referrals":{"enabled":false}}')).toBe(true);
    expect(referralProgramEverSet("{}")).toBe(false);
  });
});

describe("orderVoidReason", () => {
  const order = (o: Partial<{ cancelledAt: Date | null; subtotal: number; refundedAmount: number }>) => ({
    cancelledAt: null,
    subtotal: 10_000,
    refundedAmount: 0,
    ...o,
  });
  it.each([
    ["no order on record", null, 0, null],
    ["untouched", order({}), 5000, null],
    ["cancelled", order({ cancelledAt: new Date() }), 0, "checks.adjusted.cancelled"],
    ["fully refunded", order({ refundedAmount: 10_000 }), 0, "checks.adjusted.refunded"],
    ["partly refunded, still above the minimum", order({ refundedAmount: 4000 }), 5000, null],
    ["partly refunded, below the minimum", order({ refundedAmount: 6000 }), 5000, "checks.adjusted.below_minimum"],
  ])("%s", (_name, state, minimum, expected) => {
    expect(orderVoidReason(state, minimum)).toBe(expected);
  });
});
