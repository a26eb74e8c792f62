import type { Tx } from "../../db/transaction";
import type { ReferralCheck } from "./checks";
import { readReferralProgram } from "./program-settings";
import { NOT_IN_FLIGHT, referralTransition } from "./referral-states";

// The "referrals.order-adjusted" job: the friend's order was refunded or
// cancelled (the webhook path has already applied it to the Order row). Within
// the hold that ends the referral: a cancellation, a full refund, or a partial
// refund that leaves the order below the program's minimum cancels it, so no
// reward is given; a partial refund above the minimum keeps it (the
// advocate's reward is flat, not a share of the order). After the reward
// nothing is taken back: the referral only notes it in its checks.

type OrderState = { cancelledAt: Date | null; subtotal: number; refundedAmount: number };

/** Why the order no longer earns a reward (an i18n key in Referrals), or null when it still does. */
export function orderVoidReason(order: OrderState | null, minimumOrder: number): string | null {
  if (!order) return null;
  if (order.cancelledAt) return "checks.adjusted.cancelled";
  if (order.subtotal > 0 && order.refundedAmount >= order.subtotal) return "checks.adjusted.refunded";
  if (order.refundedAmount > 0 && order.subtotal - order.refundedAmount < minimumOrder)
    return "checks.adjusted.below_minimum";
  return null;
}

export function readChecks(json: string): ReferralCheck[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as ReferralCheck[]) : [];
  } catch {
    return [];
  }
}

/** The order's state and the shop's minimum: what decides orderVoidReason. */
export async function orderStateOf(tx: Pick<Tx, "order" | "shop">, shopId: string, orderGid: string) {
  const [order, shop] = await Promise.all([
    tx.order.findUnique({
      where: { shopId_shopifyGid: { shopId, shopifyGid: orderGid } },
      select: { cancelledAt: true, subtotal: true, refundedAmount: true },
    }),
    tx.shop.findUnique({ where: { id: shopId }, select: { settings: true } }),
  ]);
  return { order, minimumOrder: readReferralProgram(shop?.settings).friendReward.minimumOrder };
}

export async function adjustReferralOrder(tx: Tx, input: { shopId: string; orderGid: string }) {
  const referral = await tx.referral.findUnique({
    where: { shopId_orderGid: { shopId: input.shopId, orderGid: input.orderGid } },
    select: { id: true, status: true, checks: true, rewardCode: true, rewardGid: true },
  });
  if (!referral || referral.status === "cancelled") return;
  const { order, minimumOrder } = await orderStateOf(tx, input.shopId, input.orderGid);
  const reason = orderVoidReason(order, minimumOrder);
  if (!reason) return;
  // The reason goes into the checks list, where the referral's page shows it.
  const checks = readChecks(referral.checks);
  // Rewarded, or its reward on its way (referral-states.ts): only noted; the
  // reward job finishes what it started.
  const ends = referralTransition(referral, "cancelled", "system").ok;
  const detail = ends ? reason : `${reason}_after_reward`;
  if (checks.some((c) => c.detail === detail)) return;
  const note: ReferralCheck = { rule: "program_rules", outcome: "flag", detail };
  // Guarded by the state read: a reward that got there first is only noted next time.
  const written = await tx.referral.updateMany({
    where: { id: referral.id, status: referral.status, ...(ends ? NOT_IN_FLIGHT : {}) },
    // Pending (within the hold) or blocked: it ends here, and the reward job
    // finds it cancelled.
    data: ends
      ? { checks: JSON.stringify([...checks, note]), status: "cancelled", cancelledAt: new Date() }
      : { checks: JSON.stringify([...checks, note]) },
  });
  if (written.count !== 1) throw new Error(`referral ${referral.id} changed meanwhile: the webhook job tries again`);
}
