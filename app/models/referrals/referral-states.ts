// The states of a refer-a-friend referral and who moves it (issue 25). Pure:
// the reward job, the order's refund or cancellation, and the merchant's
// override ask this table, and each write names the state it expects.
//
// pending   within the hold; the reward job gives the reward when it ends
// rewarded  the reward was given (final; a later refund is only noted)
// blocked   a check or the merchant stopped it; the merchant may approve it back
// cancelled the order no longer earns a reward (final)
//
// A pending referral whose reward is on its way (the job stored the reward
// code, or the time it asked Shopify for store credit, before asking) is held
// by the reward job: it cannot be blocked or cancelled until the job records
// what Shopify did, since the code or credit may already exist.

export const REFERRAL_STATES = ["pending", "rewarded", "blocked", "cancelled"] as const;
export type ReferralState = (typeof REFERRAL_STATES)[number];

/** reward: the reward job; system: the order's refund or cancellation; merchant: an override. */
export type ReferralActor = "reward" | "system" | "merchant";

const RULES: readonly { from: ReferralState; to: ReferralState; by: ReferralActor; whileInFlight: boolean }[] = [
  { from: "pending", to: "rewarded", by: "reward", whileInFlight: true },
  { from: "pending", to: "cancelled", by: "reward", whileInFlight: false },
  { from: "pending", to: "cancelled", by: "system", whileInFlight: false },
  { from: "blocked", to: "cancelled", by: "system", whileInFlight: false },
  { from: "pending", to: "blocked", by: "merchant", whileInFlight: false },
  { from: "blocked", to: "pending", by: "merchant", whileInFlight: false },
];

export interface ReferralRewardState {
  status: string;
  rewardCode: string | null;
  rewardGid: string | null;
}

/** A pending referral whose reward the job has started to give. */
export function rewardInFlight(r: ReferralRewardState): boolean {
  return r.status === "pending" && (r.rewardCode !== null || r.rewardGid !== null);
}

export type ReferralVerdict = { ok: true } | { ok: false; why: "in_flight" | "transition" };

export function referralTransition(r: ReferralRewardState, to: ReferralState, by: ReferralActor): ReferralVerdict {
  const rule = RULES.find((x) => x.from === r.status && x.to === to && x.by === by);
  if (!rule) return { ok: false, why: "transition" };
  if (!rule.whileInFlight && rewardInFlight(r)) return { ok: false, why: "in_flight" };
  return { ok: true };
}

/** The guard of a write by an actor that may not act while the reward is on its way. */
export const NOT_IN_FLIGHT = { rewardCode: null, rewardGid: null } as const;
