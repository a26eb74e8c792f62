import type { TFunction } from "i18next";
import type { Prisma } from "../../db/generated/sqlite";
import { DEFAULT_LANGUAGE_INFO } from "../../i18n/language-table";
import { fixedT } from "../../i18n/i18next.server";
import { translateMessage } from "../../i18n/messages";
import { maskEmail } from "./mask-email";
import { parseChecks, rewardAmount } from "./referral-view";
import type { ReferralOut } from "./referral-schema";

// A referral row → its public shape (referral-schema.ts): the REST API's
// referral and the `referral` object of referral.* webhooks.

export const referralInclude = { advocate: { select: { id: true, email: true } } } as const;
type Row = Prisma.ReferralGetPayload<{ include: typeof referralInclude }>;

// The reason is stored as a translation key with its values (checks.ts);
// the REST API answers in English (ADR 020).
export const englishReferralTexts = () => fixedT(DEFAULT_LANGUAGE_INFO, ["Referrals"]);

// Also the `referral` object of referral.* webhooks, so a receiver parses one
// shape whether it polls the API or is called.
export function serializeReferral(row: Row, t: TFunction = englishReferralTexts()): ReferralOut {
  const amount = rewardAmount(row);
  return {
    id: row.id,
    status: row.status as ReferralOut["status"],
    advocate: { id: row.advocate.id, email: row.advocate.email },
    friend_email: maskEmail(row.friendEmail),
    order_gid: row.orderGid,
    order_name: row.orderName,
    order_total: row.orderTotal,
    currency: row.currency,
    source: row.source as ReferralOut["source"],
    reason: translateMessage(t, row.reason) ?? "",
    friend_code: row.friendCode,
    checks: parseChecks(row.checks),
    blocked_rule: row.blockedRule,
    override: row.overriddenAt
      ? { note: row.overrideNote ?? "", by: row.overriddenBy ?? "", at: row.overriddenAt.toISOString() }
      : null,
    reward: {
      kind: row.rewardKind as ReferralOut["reward"]["kind"],
      amount: amount.type === "money" ? amount.amount : null,
      currency: amount.type === "money" ? amount.currency : null,
      percent_bps: amount.type === "percent" ? amount.basisPoints : null,
      code: row.rewardCode,
      payout_id: row.payoutId,
      rewarded_at: row.rewardedAt?.toISOString() ?? null,
    },
    hold_until: row.holdUntil.toISOString(),
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    placed_at: row.placedAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}
