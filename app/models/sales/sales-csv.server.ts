import type { ShopDb } from "../../db/shop-db.server";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import { keysetCsvStream } from "../csv/keyset-csv-stream.server";
import { decimalAmount } from "../payouts/csv/payout-csv-format";
import { parseStoredTags, TAG_PARAMS } from "../tracking/link-tags";
import type { SaleListParams } from "./sale-list-query";

// CSV export of the shop's sales with the list's status, source, affiliate
// and date filters, newest first, streamed in keyset pages. Each sale carries
// the tags of the link that credited it (sub_id, sub1..sub5, utm_*), one
// column each. Dates are ISO 8601 UTC; amounts plain decimals next to their
// currency.

export const SALES_CSV_HEADER = [
  "id",
  "order",
  "placed_at",
  "status",
  "source",
  "affiliate_code",
  "currency",
  "subtotal",
  "total",
  "commission",
  "click_id",
  "sub_id",
  ...TAG_PARAMS,
];

export function exportSalesCsv(db: ShopDb, timeZone: string, params: SaleListParams) {
  const since = params.since ? startOfShopDay(params.since, timeZone) : null;
  const until = params.until ? startOfShopDay(nextDay(params.until), timeZone) : null;
  const where = {
    shopId: db.$shopId,
    ...(params.status ? { status: params.status } : {}),
    ...(params.source ? { attributionSource: params.source } : {}),
    ...(params.affiliate_id ? { affiliateId: params.affiliate_id } : {}),
    ...(since || until ? { placedAt: { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) } } : {}),
  };
  return keysetCsvStream({
    header: SALES_CSV_HEADER,
    page: (after, take) =>
      db.order.findMany({
        where: after ? { AND: [where, after] } : where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
        select: {
          id: true,
          createdAt: true,
          name: true,
          placedAt: true,
          status: true,
          attributionSource: true,
          currency: true,
          subtotal: true,
          total: true,
          clickId: true,
          subId: true,
          linkTags: true,
          affiliate: { select: { referralCode: true } },
          commissions: { where: { status: { notIn: ["void", "denied"] } }, select: { amount: true } },
        },
      }),
    line: (row) => {
      const tags = parseStoredTags(row.linkTags);
      return [
        row.id,
        row.name,
        row.placedAt.toISOString(),
        row.status,
        row.attributionSource,
        row.affiliate?.referralCode ?? "",
        row.currency,
        decimalAmount(row.subtotal, row.currency),
        decimalAmount(row.total, row.currency),
        decimalAmount(
          row.commissions.reduce((sum, c) => sum + c.amount, 0),
          row.currency,
        ),
        row.clickId ?? "",
        row.subId ?? "",
        ...TAG_PARAMS.map((name) => tags[name] ?? ""),
      ];
    },
  });
}
