import { shownSaleStatus } from "./sale-statuses";
import type { ShopDb } from "../../db/shop-db.server";
import { containsText } from "../../db/text-search.server";
import { AppError } from "../../lib/errors";
import { ADMIN_PAGE_SIZE } from "../pagination/keyset.server";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import { keysetPage, keysetQuery } from "../pagination/keyset.server";
import type { SaleListParams } from "./sale-list-query";

// The admin's sales list: the shop's orders, credited or not, newest first
// (placedAt desc, id desc), one keyset page at a time. Every filter is a
// where clause on indexed columns; nothing loads more than a page of rows,
// and each row carries only what the list shows (it goes to the page as JSON).

// A page as long as every admin list's: a page of Polaris's
// IndexTable costs about 2.4 KB of HTML and its share of rendering per row.
export const SALES_PAGE_SIZE = ADMIN_PAGE_SIZE;
const MAX_MATCHED_AFFILIATES = 100;

async function affiliateIds(db: ShopDb, params: SaleListParams): Promise<string[] | undefined> {
  const shopId = db.$shopId;
  if (params.affiliate_id) return [params.affiliate_id];
  if (!params.affiliate) return undefined;
  const text = params.affiliate;
  const rows = await db.affiliate.findMany({
    where: {
      shopId,
      OR: [
        { referralCode: text.toUpperCase() },
        { email: containsText(text) },
        { firstName: containsText(text) },
        { lastName: containsText(text) },
      ],
    },
    select: { id: true },
    take: MAX_MATCHED_AFFILIATES,
  });
  return rows.map((r) => r.id);
}

function placedRange(params: SaleListParams, timeZone: string) {
  const since = params.since ? startOfShopDay(params.since, timeZone) : null;
  const until = params.until ? startOfShopDay(nextDay(params.until), timeZone) : null;
  if (!since && !until) return undefined;
  return { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) };
}

export async function listSalesPage(db: ShopDb, timezone: string, params: SaleListParams) {
  const page = { after: params.after, before: params.before, limit: SALES_PAGE_SIZE };
  const ids = await affiliateIds(db, params);
  const placedAt = placedRange(params, timezone);
  let query;
  try {
    query = keysetQuery("placedAt", page);
  } catch (error) {
    if (error instanceof AppError) return { sales: [], after: null, before: null, invalidCursor: true };
    throw error;
  }
  const where = {
    shopId: db.$shopId,
    ...(params.status ? { status: params.status } : {}),
    ...(params.source ? { attributionSource: params.source } : {}),
    // One affiliate (the usual case) is an equality, which lets the database
    // walk that affiliate's (affiliateId, placedAt) index.
    ...(ids ? { affiliateId: ids.length === 1 ? ids[0]! : { in: ids } } : {}),
    ...(placedAt ? { placedAt } : {}),
  };
  const fetched = await db.order.findMany({
    where: { AND: [where, query.where] },
    orderBy: query.orderBy,
    take: query.take,
    select: {
      id: true,
      name: true,
      placedAt: true,
      currency: true,
      total: true,
      refundedAmount: true,
      status: true,
      attributionSource: true,
      affiliate: { select: { firstName: true, lastName: true, referralCode: true } },
    },
  });
  const result = keysetPage("placedAt", page, fetched, (row) => row.placedAt);
  const orderIds = result.rows.map((r) => r.id);
  const sums = orderIds.length
    ? await db.commission.groupBy({
        by: ["orderId"],
        where: { orderId: { in: orderIds }, status: { notIn: ["void", "denied"] } },
        _sum: { amount: true },
      })
    : [];
  const commissionOf = new Map(sums.map((s) => [s.orderId, s._sum.amount ?? 0]));
  return {
    sales: result.rows.map((row) => ({
      id: row.id,
      name: row.name,
      placedAt: row.placedAt.toISOString(),
      currency: row.currency,
      total: row.total,
      status: shownSaleStatus({
        status: row.status,
        credited: row.affiliate !== null,
        total: row.total,
        refundedAmount: row.refundedAmount,
      }),
      source: row.attributionSource,
      affiliate: row.affiliate
        ? {
            name: `${row.affiliate.firstName} ${row.affiliate.lastName}`.trim(),
            code: row.affiliate.referralCode,
          }
        : null,
      commission: commissionOf.get(row.id) ?? 0,
    })),
    after: result.after,
    before: result.before,
    invalidCursor: false,
  };
}
