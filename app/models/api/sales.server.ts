import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { reviewSale, type SaleDecision } from "../orders/review-sale.server";
import { afterCursor, dateRange, pageOrder, toPage } from "../pagination/cursor.server";
import type { SaleListQuery } from "./schemas";
import { serializeSale } from "./serializers";
import { englishExplanation } from "../commissions/explanation-english.server";
import { englishAttributionReason } from "../attribution/attribution-reason-english.server";

// Sales are the shop's Order rows, credited or not: an order credited to
// nobody is listed too (source "none", with the reason), so the merchant
// sees why it earned no commission.

const include = { commissions: true } as const;

const englishReason = (row: {
  attributionReason: string;
  attributionReasonKey: string;
  attributionReasonValues: string;
  attributionSource: string;
}) =>
  englishAttributionReason({
    reason: row.attributionReason,
    reasonKey: row.attributionReasonKey,
    reasonValues: row.attributionReasonValues,
    source: row.attributionSource,
  });

export async function listSales(db: ShopDb, query: SaleListQuery) {
  const shopId = db.$shopId;
  const placedAt = dateRange(query.since, query.until);
  const rows = await db.order.findMany({
    where: {
      shopId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.affiliate_id ? { affiliateId: query.affiliate_id } : {}),
      ...(placedAt ? { placedAt } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: pageOrder,
    take: query.limit + 1,
    include,
  });
  return toPage(rows, query.limit, (row) => serializeSale(row, englishExplanation, englishReason));
}

export async function getSale(db: ShopDb, id: string) {
  const shopId = db.$shopId;
  const row = await db.order.findFirst({ where: { id, shopId }, include });
  if (!row) throw new AppError("not_found", "No sale with this id.");
  return serializeSale(row, englishExplanation, englishReason);
}

export async function decideSale(db: ShopDb, id: string, decision: SaleDecision) {
  return serializeSale(await reviewSale(db, id, decision), englishExplanation, englishReason);
}
