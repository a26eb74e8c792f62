import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { emailKey } from "../referrals/email-key";
import { englishReferralTexts, referralInclude as include, serializeReferral } from "../referrals/referral-out.server";
import { afterCursor, dateRange, pageOrder, toPage } from "../pagination/cursor.server";
import type { ReferralListQuery } from "./referral-schemas";

// GET /api/v1/referrals and /api/v1/referrals/{id}: the shop's referrals,
// newest first with the API's cursor pages. The friend's e-mail is masked as
// in the admin's history.

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
  const t = englishReferralTexts();
  return toPage(rows, query.limit, (row) => serializeReferral(row, t));
}

export async function getReferral(db: ShopDb, id: string) {
  const row = await db.referral.findFirst({ where: { id, shopId: db.$shopId }, include });
  if (!row) throw new AppError("not_found", "No referral with this id.");
  return serializeReferral(row, englishReferralTexts());
}
