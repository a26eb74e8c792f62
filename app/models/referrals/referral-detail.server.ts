import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { orderNumber, parseChecks, rewardAmount, rewardState } from "./referral-view";

// Everything the referral screen shows about one referral of the shop: the
// advocate, the friend, the order (and the sale this app recorded for it,
// when there is one), why it counts, the fraud checks with their outcomes,
// the reward and where it stands, and the merchant's override. JSON-ready.

export async function getReferralDetail(db: ShopDb, id: string, now: Date = new Date()) {
  const shopId = db.$shopId;
  const row = await db.referral.findFirst({
    where: { id, shopId },
    include: {
      advocate: {
        select: { id: true, email: true, firstName: true, friendCode: true, disabledAt: true, createdAt: true },
      },
    },
  });
  if (!row) throw new AppError("not_found", "No referral with this id.");
  const [sale, advocateReferrals] = await Promise.all([
    db.order.findFirst({ where: { shopId, shopifyGid: row.orderGid }, select: { id: true } }),
    db.referral.count({ where: { shopId, advocateId: row.advocateId } }),
  ]);
  return {
    id: row.id,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    advocate: {
      id: row.advocate.id,
      email: row.advocate.email,
      firstName: row.advocate.firstName,
      friendCode: row.advocate.friendCode,
      disabled: Boolean(row.advocate.disabledAt),
      since: row.advocate.createdAt.toISOString(),
      referrals: advocateReferrals,
    },
    friend: { email: row.friendEmail, customerGid: row.friendCustomerGid },
    order: {
      gid: row.orderGid,
      number: orderNumber(row.orderGid),
      name: row.orderName,
      total: row.orderTotal,
      currency: row.currency,
      placedAt: row.placedAt.toISOString(),
      saleId: sale?.id ?? null,
    },
    source: row.source,
    reason: row.reason,
    friendCode: row.friendCode,
    checks: parseChecks(row.checks),
    blockedRule: row.blockedRule,
    override: row.overriddenAt
      ? { note: row.overrideNote ?? "", by: row.overriddenBy ?? "", at: row.overriddenAt.toISOString() }
      : null,
    holdUntil: row.holdUntil.toISOString(),
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    reward: {
      kind: row.rewardKind,
      ...rewardAmount(row),
      state: rewardState(row, now),
      code: row.rewardCode,
      gid: row.rewardGid,
      payoutId: row.payoutId,
      rewardedAt: row.rewardedAt?.toISOString() ?? null,
    },
    canApprove: row.status === "blocked",
    canBlock: row.status === "pending",
  };
}
