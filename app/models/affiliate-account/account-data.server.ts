import { parseReasonValues } from "../attribution/attribution-reason";
import { holdsOnSales } from "../leaks/leak-list.server";
import { convertedSelect } from "../payouts/converted-view";
import type { ShopDb } from "../../db/shop-db.server";
import { containsText } from "../../db/text-search.server";
import type { CampaignTerms } from "../commissions/calculate-commission";
import { productCommission } from "./product-commission";
import { reasonForAffiliate } from "../attribution/attribution-reason";
import { parseSignals, signalsForAffiliate } from "../attribution/reconcile-signals";
import { affiliateBalance } from "../payouts/balance.server";
import { localGroupIndex, groupKey, periodKeys, presetRange, safeZone, type DatePreset } from "../../lib/date-presets";

// What an affiliate sees of their own records. Every query names both the
// shop and the affiliate: an id of another affiliate or shop finds nothing.

const LIVE = { notIn: ["denied", "void"] };

/** The affiliate's figures for a preset, in days of the shop's time zone. */
export async function accountDashboard(
  db: ShopDb,
  affiliateId: string,
  preset: DatePreset,
  timezone: string,
  now = new Date(),
) {
  const shopId = db.$shopId;
  const zone = safeZone(timezone);
  const { start, end } = presetRange(preset, zone, now);
  const created = { gte: start, lt: end };
  const [clicks, sales, byStatus, balance, rows] = await Promise.all([
    db.click.count({ where: { shopId, affiliateId, createdAt: created } }),
    db.order.count({ where: { shopId, affiliateId, status: LIVE, placedAt: created } }),
    db.commission.groupBy({
      by: ["status"],
      where: { shopId, affiliateId, createdAt: created, status: { in: ["pending", "approved", "paid"] } },
      _sum: { amount: true },
    }),
    affiliateBalance(db, { shopId, affiliateId }),
    db.commission.findMany({
      where: { shopId, affiliateId, createdAt: created, status: LIVE },
      select: { amount: true, createdAt: true },
      orderBy: { createdAt: "asc" },
      take: 20_000,
    }),
  ]);
  const sum = (status: string) => byStatus.find((r) => r.status === status)?._sum.amount ?? 0;
  // Per local day, at most the last 120 days of the range (all days: from the first commission).
  const chartStart = Math.max(
    preset === "all" ? (rows[0]?.createdAt.getTime() ?? end.getTime() - 86_400_000) : start.getTime(),
    end.getTime() - 120 * 86_400_000,
  );
  const series = new Map(periodKeys({ start: new Date(chartStart), end }, zone, "day").map((k) => [k, 0]));
  for (const r of rows) {
    const key = groupKey(localGroupIndex(r.createdAt.getTime(), zone, 1440), "day");
    if (series.has(key)) series.set(key, series.get(key)! + r.amount);
  }
  return {
    clicks,
    sales,
    commissions: { pending: sum("pending"), approved: sum("approved"), paid: sum("paid") },
    balance,
    chart: [...series].map(([day, amount]) => ({ day, amount })),
  };
}

/** What the affiliate is owed and what awaits approval, per currency (payouts/payable-balance.ts). */
export function accountBalance(db: ShopDb, affiliateId: string) {
  return affiliateBalance(db, { shopId: db.$shopId, affiliateId });
}

export const SALES_PAGE = 25;

export async function listAccountSales(db: ShopDb, affiliateId: string, page: number) {
  const shopId = db.$shopId;
  const where = { shopId, affiliateId };
  const [total, orders] = await Promise.all([
    db.order.count({ where }),
    db.order.findMany({
      where,
      orderBy: { placedAt: "desc" },
      skip: (page - 1) * SALES_PAGE,
      take: SALES_PAGE,
      select: {
        id: true,
        name: true,
        placedAt: true,
        subtotal: true,
        currency: true,
        status: true,
        // How it was credited (coupon, link, ...): the list's short "why".
        attributionSource: true,
        leakHoldId: true,
        commissions: { where: { affiliateId }, select: { amount: true } },
      },
    }),
  ]);
  // A leak flag's hold (ADR 051) is shown with its code; the flag's id stays on the server.
  const holds = await holdsOnSales(
    db,
    affiliateId,
    orders.map((o) => o.leakHoldId),
  );
  return {
    total,
    sales: orders.map(({ commissions, leakHoldId, ...o }) => ({
      ...o,
      commission: commissions.reduce((s, c) => s + c.amount, 0),
      heldCode: (leakHoldId && holds.get(leakHoldId)) || null,
    })),
  };
}

/**
 * One of the affiliate's own sales, or null (another affiliate's or shop's id
 * included): with why it was credited (the merchant's attribution trail
 * without notes about other candidates, see reasonForAffiliate) and how each
 * of the affiliate's lines was computed, reduced or reversed (the stored
 * explanations). Nothing of the customer: no e-mail, name, address or click data.
 */
export async function getAccountSale(db: ShopDb, affiliateId: string, orderId: string) {
  const sale = await findAccountSale(db, affiliateId, orderId);
  if (!sale) return null;
  const { attributionReason, attributionReasonKey, attributionReasonValues, attributionSignals, affiliate, ...rest } =
    sale;
  return {
    ...rest,
    // Which signals agreed; one that pointed elsewhere does not say to whom (ADR 056).
    signals: signalsForAffiliate(parseSignals(attributionSignals)),
    affiliateName: affiliate ? `${affiliate.firstName} ${affiliate.lastName}`.trim() : null,
    reason: reasonForAffiliate({
      reason: attributionReason,
      reasonKey: attributionReasonKey,
      reasonValues: attributionReasonValues,
    }),
  };
}

async function findAccountSale(db: ShopDb, affiliateId: string, orderId: string) {
  const shopId = db.$shopId;
  const sale = await db.order.findFirst({
    where: { id: orderId, shopId, affiliateId },
    select: {
      id: true,
      name: true,
      placedAt: true,
      subtotal: true,
      total: true,
      currency: true,
      status: true,
      refundedAmount: true,
      cancelledAt: true,
      approveAfter: true,
      attributionSource: true,
      renewalNumber: true,
      attributionReason: true,
      attributionReasonKey: true,
      attributionReasonValues: true,
      attributionSignals: true,
      affiliate: { select: { firstName: true, lastName: true } },
      // Shopify Markets: what the customer paid in their own currency (ADR 040).
      presentmentCurrency: true,
      presentmentTotal: true,
      presentmentRate: true,
      commissions: {
        where: { affiliateId },
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          kind: true,
          amount: true,
          currency: true,
          status: true,
          explanation: true,
          createdAt: true,
        },
      },
    },
  });
  if (!sale) return null;
  const { renewalNumber, ...rest } = sale;
  // A subscription's renewal order (ADR 047): which renewal, of a subscription started when.
  const started = renewalNumber ? parseReasonValues(sale.attributionReasonValues)?.started : undefined;
  return { ...rest, renewal: renewalNumber && started ? { number: renewalNumber, started } : null };
}

export function listAccountPayouts(db: ShopDb, affiliateId: string) {
  const shopId = db.$shopId;
  return db.payout.findMany({
    where: { shopId, affiliateId },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: {
      id: true,
      amount: true,
      currency: true,
      status: true,
      method: true,
      reference: true,
      // A payout in a discount code: the code is the affiliate's to use.
      discountCode: true,
      // A payout in a gift card: so is the card's code (the reference is Shopify's id, not for them).
      giftCardCode: true,
      paidAt: true,
      createdAt: true,
      // Paid in the affiliate's currency (ADR 052).
      ...convertedSelect,
    },
  });
}

export function listRecruits(db: ShopDb, affiliateId: string) {
  const shopId = db.$shopId;
  return db.affiliate.findMany({
    where: { shopId, parentId: affiliateId },
    orderBy: { createdAt: "desc" },
    take: 200,
    select: { id: true, firstName: true, lastName: true, status: true, createdAt: true },
  });
}

export function listCoupons(db: ShopDb, affiliateId: string) {
  const shopId = db.$shopId;
  return db.coupon.findMany({ where: { shopId, affiliateId }, orderBy: { code: "asc" }, select: { code: true } });
}

export function listProducts(db: ShopDb, query: string, take = 100) {
  const shopId = db.$shopId;
  return db.product.findMany({
    where: { shopId, status: "active", ...(query ? { title: containsText(query) } : {}) },
    orderBy: { title: "asc" },
    take,
    select: { id: true, gid: true, title: true, handle: true, imageUrl: true, price: true },
  });
}

/**
 * The shop's products as an affiliate sees them: image, price and what the
 * affiliate earns on each under their campaign (the commission calculator's
 * own answer for a one-item order at that price).
 */
export async function listProductsWithCommission(
  db: ShopDb,
  affiliate: { campaignId: string },
  currency: string,
  query: string,
  take = 100,
) {
  const [products, campaign] = await Promise.all([
    listProducts(db, query, take),
    db.campaign.findFirst({ where: { id: affiliate.campaignId, shopId: db.$shopId }, include: { rules: true } }),
  ]);
  const known = await db.productCollections.findMany({
    where: { shopId: db.$shopId, productGid: { in: products.map((p) => p.gid) } },
    select: { productGid: true, collectionGids: true },
  });
  const collections = new Map(known.map((k) => [k.productGid, parseGids(k.collectionGids)]));
  const terms = campaign ? campaignTermsOf(campaign) : null;
  return products.map((p) => ({
    ...p,
    commission: terms
      ? productCommission(terms, { gid: p.gid, price: p.price, collectionGids: collections.get(p.gid) ?? [] }, currency)
      : null,
  }));
}

function parseGids(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

function campaignTermsOf(c: {
  commissionType: string;
  commissionValue: number;
  newCustomerValue: number | null;
  rules: { targetType: string; targetGid: string; kind: string; commissionType: string; value: number }[];
}): CampaignTerms {
  return {
    commissionType: c.commissionType as CampaignTerms["commissionType"],
    commissionValue: c.commissionValue,
    newCustomerValue: c.newCustomerValue,
    rules: c.rules.map((r) => ({
      targetType: r.targetType as "product" | "collection",
      targetGid: r.targetGid,
      kind: r.kind as "rate" | "exclude",
      commissionType: r.commissionType as "percent" | "flat_item",
      value: r.value,
    })),
    // Upline levels are not the affiliate's own earnings.
    levels: [],
  };
}
