import type { TFunction } from "i18next";
import type { Prisma } from "../../db/generated/sqlite";
import type { ShopDb } from "../../db/shop-db.server";
import { DEFAULT_LANGUAGE_INFO } from "../../i18n/language-table";
import { fixedT } from "../../i18n/i18next.server";
import { translateMessage } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { emailKey } from "../referrals/email-key";
import { maskEmail } from "../referrals/mask-email";
import { parseChecks, rewardAmount } from "../referrals/referral-view";
import { afterCursor, dateRange, pageOrder, toPage } from "./pagination.server";
import type { ReferralListQuery, ReferralOut } from "./referral-schemas";

// GET /api/v1/referrals and /api/v1/referrals/{id}: the shop's referrals,
// newest first with the API's cursor pages. The friend's e-mail is masked as
// in the admin's history.

export const referralInclude = { advocate: { select: { id: true, email: true } } } as const;
const include = referralInclude;
type Row = Prisma.ReferralGetPayload<{ include: typeof include }>;

// The reason is stored as a translation key with its values (slice ENGINE);
// the REST API answers in English (ADR 020).
const english = () => fixedT(DEFAULT_LANGUAGE_INFO, ["Referrals"]);

// Also the `referral` object of referral.* webhooks, so a receiver parses one
// shape whether it polls the API or is called.
export function serializeReferral(row: Row, t: TFunction = english()): ReferralOut {
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

export async function listReferrals(db: ShopDb, query: ReferralListQuery) {
  const shopId = db.$shopId;
  const createdAt = dateRange(query.since, query.until);
  let advocateId: string | undefined;
  if (query.advocate_email) {
    const advocate = await db.referralAdvocate.findFirst({
      where: { shopId, emailKey: emailKey(query.advocate_email) },
      select: { id: true },
    });
    if (!advocate) return { data: [], next_cursor: null };
    advocateId = advocate.id;
  }
  const rows = await db.referral.findMany({
    where: {
      shopId,
      ...(query.status ? { status: query.status } : {}),
      ...(advocateId ? { advocateId } : {}),
      ...(createdAt ? { createdAt } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: pageOrder,
    take: query.limit + 1,
    include,
  });
  const t = english();
  return toPage(rows, query.limit, (row) => serializeReferral(row, t));
}

export async function getReferral(db: ShopDb, id: string) {
  const row = await db.referral.findFirst({ where: { id, shopId: db.$shopId }, include });
  if (!row) throw new AppError("not_found", "No referral with this id.");
  return serializeReferral(row, english());
}
