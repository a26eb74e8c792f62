import type { ShopDb } from "../../db/shop-db.server";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import type { SubIdReportParams } from "./sub-id-report-query";

// Clicks, QR scans, sales and commission per sub_id over a date range, for the
// whole shop (admin) or one affiliate (account area). Paged on the server in
// sub-id order (keyset on the sub-id itself): a page is the next sub-ids that
// had a click or a sale in the range, then one grouped query per measure for
// just those sub-ids. Clicks are counted by when they happened, sales by when
// they were placed, commission with its sale. Amounts stay per currency.

export const SUB_ID_PAGE_SIZE = 25;
const DAY = 86_400_000;
const DEFAULT_DAYS = 30;
// Sales that count: credited and not denied or cancelled.
const COUNTED = ["pending", "approved", "paid"];

export interface Money {
  currency: string;
  amount: number;
}

export interface SubIdRow {
  subId: string;
  clicks: number;
  qrClicks: number;
  sales: number;
  revenue: Money[];
  commission: Money[];
}

export interface SubIdReport {
  rows: SubIdRow[];
  /** The cursor of the next page, or null on the last. */
  next: string | null;
  /** This page's cursor (null on the first page). */
  after: string | null;
  since: string;
  until: string;
}

function dayOf(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

/** The range asked for, or the last 30 days in the shop's zone; reversed bounds are swapped. */
export function reportRange(params: SubIdReportParams, timeZone: string, now = new Date()) {
  let until = params.until ?? dayOf(now, timeZone);
  let since = params.since ?? dayOf(new Date(now.getTime() - (DEFAULT_DAYS - 1) * DAY), timeZone);
  if (since > until) [since, until] = [until, since];
  const from = startOfShopDay(since, timeZone) ?? new Date(now.getTime() - DEFAULT_DAYS * DAY);
  const to = startOfShopDay(nextDay(until), timeZone) ?? now;
  return { since, until, from, to };
}

function addMoney(list: Money[], currency: string, amount: number) {
  const known = list.find((m) => m.currency === currency);
  if (known) known.amount += amount;
  else list.push({ currency, amount });
}

export async function subIdReport(
  db: ShopDb,
  timeZone: string,
  params: SubIdReportParams,
  scope: { affiliateId?: string } = {},
): Promise<SubIdReport> {
  const shopId = db.$shopId;
  const { since, until, from, to } = reportRange(params, timeZone);
  const who = scope.affiliateId ? { affiliateId: scope.affiliateId } : {};
  const after = params.after ? { gt: params.after } : { not: null };
  const clickWhere = { shopId, ...who, createdAt: { gte: from, lt: to } };
  const saleWhere = { shopId, ...who, placedAt: { gte: from, lt: to }, status: { in: COUNTED } };

  // The next sub-ids of either kind; a page is the first of their union.
  const [clickIds, saleIds] = await Promise.all([
    db.click.groupBy({
      by: ["subId"],
      where: { ...clickWhere, subId: after },
      orderBy: { subId: "asc" },
      take: SUB_ID_PAGE_SIZE + 1,
    }),
    db.order.groupBy({
      by: ["subId"],
      where: { ...saleWhere, affiliateId: scope.affiliateId ?? { not: null }, subId: after },
      orderBy: { subId: "asc" },
      take: SUB_ID_PAGE_SIZE + 1,
    }),
  ]);
  const merged = [...new Set([...clickIds, ...saleIds].map((r) => r.subId!))].sort();
  const page = merged.slice(0, SUB_ID_PAGE_SIZE);
  const next = merged.length > SUB_ID_PAGE_SIZE ? page[page.length - 1]! : null;
  if (!page.length) return { rows: [], next: null, after: params.after ?? null, since, until };

  const [clicks, sales, commissions] = await Promise.all([
    db.click.groupBy({
      by: ["subId", "source"],
      where: { ...clickWhere, subId: { in: page } },
      _count: { _all: true },
    }),
    db.order.groupBy({
      by: ["subId", "currency"],
      where: { ...saleWhere, affiliateId: scope.affiliateId ?? { not: null }, subId: { in: page } },
      _count: { _all: true },
      _sum: { subtotal: true },
    }),
    // The affiliate's own commission in the account area; every level in the admin.
    db.commission.findMany({
      where: {
        shopId,
        ...(scope.affiliateId ? { affiliateId: scope.affiliateId } : {}),
        status: { notIn: ["void", "denied"] },
        order: { ...saleWhere, subId: { in: page } },
      },
      select: { amount: true, currency: true, order: { select: { subId: true } } },
    }),
  ]);
  const bySubId = new Map<string, SubIdRow>(
    page.map((subId) => [subId, { subId, clicks: 0, qrClicks: 0, sales: 0, revenue: [], commission: [] }]),
  );
  for (const c of clicks) {
    const row = bySubId.get(c.subId!);
    if (!row) continue;
    row.clicks += c._count._all;
    if (c.source === "qr") row.qrClicks += c._count._all;
  }
  for (const s of sales) {
    const row = bySubId.get(s.subId!);
    if (!row) continue;
    row.sales += s._count._all;
    addMoney(row.revenue, s.currency, s._sum.subtotal ?? 0);
  }
  for (const c of commissions) {
    const row = c.order?.subId ? bySubId.get(c.order.subId) : undefined;
    if (row) addMoney(row.commission, c.currency, c.amount);
  }
  return { rows: [...bySubId.values()], next, after: params.after ?? null, since, until };
}
