import { describe, expect, it } from "vitest";
import { referralTransition, rewardInFlight, type ReferralRewardState } from "./referral-states";

const idle = (status: string): ReferralRewardState => ({ status, rewardCode: null, rewardGid: null });
const askedCredit: ReferralRewardState = {
  status: "pending",
  rewardCode: null,
  rewardGid: "asked:2026-11-28T00:00:00Z",
};
const codeStored: ReferralRewardState = { status: "pending", rewardCode: "REF-ABC", rewardGid: null };

describe("referral transitions", () => {
  it.each([
    [idle("pending"), "rewarded", "reward", { ok: true }],
    [askedCredit, "rewarded", "reward", { ok: true }],
    [idle("pending"), "cancelled", "system", { ok: true }],
    [idle("blocked"), "cancelled", "system", { ok: true }],
    [askedCredit, "cancelled", "system", { ok: false, why: "in_flight" }],
    [codeStored, "cancelled", "reward", { ok: false, why: "in_flight" }],
    [idle("pending"), "blocked", "merchant", { ok: true }],
    [codeStored, "blocked", "merchant", { ok: false, why: "in_flight" }],
    [idle("blocked"), "pending", "merchant", { ok: true }],
    [idle("rewarded"), "cancelled", "system", { ok: false, why: "transition" }],
    [idle("rewarded"), "blocked", "merchant", { ok: false, why: "transition" }],
    [idle("cancelled"), "pending", "merchant", { ok: false, why: "transition" }],
    [idle("pending"), "rewarded", "merchant", { ok: false, why: "transition" }],
  ] as const)("%j → %s by %s: %j", (state, to, by, expected) => {
    expect(referralTransition(state, to, by)).toEqual(expected);
  });

  it("counts a reward as on its way only while the referral is pending", () => {
    expect(rewardInFlight(askedCredit)).toBe(true);
    expect(rewardInFlight(codeStored)).toBe(true);
    expect(rewardInFlight(idle("pending"))).toBe(false);
    expect(rewardInFlight({ ...codeStored, status: "rewarded" })).toBe(false);
  });
});
