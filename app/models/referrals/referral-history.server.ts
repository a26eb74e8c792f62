import type { ShopDb } from "../../db/shop-db.server";
import { containsText } from "../../db/text-search.server";
import { AppError } from "../../lib/errors";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import { keysetPage, keysetQuery } from "../pagination/keyset.server";
import { maskEmail } from "./mask-email";
import type { ReferralHistoryParams } from "./referral-history-query";
import { rewardAmount } from "./referral-view";

// The admin's referral history: the shop's referrals, newest (or oldest)
// first by createdAt, one keyset page of 25 at a time. Each row carries only
// what the list shows, with the friend's e-mail already masked: the full
// address never reaches the list's page.

export const REFERRALS_PAGE_SIZE = 25;
const MAX_MATCHED_ADVOCATES = 100;

export type ReferralFilter = Pick<ReferralHistoryParams, "status" | "q" | "since" | "until">;

async function advocateIds(db: ShopDb, text: string): Promise<string[]> {
  const rows = await db.referralAdvocate.findMany({
    where: { shopId: db.$shopId, OR: [{ email: containsText(text) }, { friendCode: containsText(text) }] },
    select: { id: true },
    take: MAX_MATCHED_ADVOCATES,
  });
  return rows.map((r) => r.id);
}

function createdRange(filter: ReferralFilter, timeZone: string) {
  const since = filter.since ? startOfShopDay(filter.since, timeZone) : null;
  const until = filter.until ? startOfShopDay(nextDay(filter.until), timeZone) : null;
  if (!since && !until) return undefined;
  return { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) };
}

/** The where clause of the list's filters (shared by the page and the CSV export). */
export async function referralWhere(db: ShopDb, timeZone: string, filter: ReferralFilter) {
  const createdAt = createdRange(filter, timeZone);
  const text = filter.q;
  const advocates = text ? await advocateIds(db, text) : [];
  return {
    shopId: db.$shopId,
    ...(filter.status ? { status: filter.status } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(text
      ? {
          OR: [
            ...(advocates.length ? [{ advocateId: { in: advocates } }] : []),
            { orderName: containsText(text) },
            { friendCode: containsText(text) },
            { rewardCode: containsText(text) },
          ],
        }
      : {}),
  };
}

export const REFERRAL_ROW_SELECT = {
  id: true,
  createdAt: true,
  orderName: true,
  friendEmail: true,
  status: true,
  source: true,
  rewardKind: true,
  rewardValue: true,
  rewardCurrency: true,
  advocate: { select: { id: true, email: true } },
} as const;

export async function listReferralsPage(db: ShopDb, timeZone: string, params: ReferralHistoryParams) {
  const page = {
    after: params.after,
    before: params.before,
    limit: REFERRALS_PAGE_SIZE,
    order: params.sort === "created asc" ? ("asc" as const) : ("desc" as const),
  };
  let query;
  try {
    query = keysetQuery("createdAt", page);
  } catch (error) {
    if (error instanceof AppError) return { referrals: [], after: null, before: null, invalidCursor: true };
    throw error;
  }
  const where = await referralWhere(db, timeZone, params);
  const fetched = await db.referral.findMany({
    where: { AND: [where, query.where] },
    orderBy: query.orderBy,
    take: query.take,
    select: REFERRAL_ROW_SELECT,
  });
  const result = keysetPage("createdAt", page, fetched, (row) => row.createdAt);
  return {
    referrals: result.rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      orderName: row.orderName,
      advocate: { id: row.advocate.id, email: row.advocate.email },
      friend: maskEmail(row.friendEmail),
      status: row.status,
      source: row.source,
      reward: { kind: row.rewardKind, ...rewardAmount(row) },
    })),
    after: result.after,
    before: result.before,
    invalidCursor: false,
  };
}

/** Whether the shop has any referral at all (the empty list then points to the program settings). */
export async function hasReferrals(db: ShopDb): Promise<boolean> {
  return Boolean(await db.referral.findFirst({ where: { shopId: db.$shopId }, select: { id: true } }));
}
