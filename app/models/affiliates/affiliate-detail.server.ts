import type { ShopDb } from "../../db/shop-db.server";
import { publishedSignupFields, signupAnswerRows } from "../portal/signup-fields.server";
import { AppError } from "../../lib/errors";
import { affiliateBalance } from "../payouts/balance.server";
import { totalsByCurrency, type MoneyTotal } from "../payouts/payable-balance";
import { AFFILIATE_SUMMARY } from "./admin-affiliates.server";
import { listAliases } from "./referral-aliases.server";

// One affiliate for the admin detail page: the record, and their clicks,
// sales, commissions and balance. At scale (10M clicks, 1M orders) every
// query here is limited to the affiliate and served by an index on
// affiliateId: Click(affiliateId, createdAt), Order(affiliateId),
// Commission(affiliateId, status). Lists are the latest RECENT rows.

const RECENT = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

export type { MoneyTotal };

/** Sums grouped rows per currency (a shop may have sold in several). */
function byCurrency(rows: { currency: string; _sum: { amount?: number | null; subtotal?: number | null } }[]) {
  return totalsByCurrency(
    rows.map((row) => ({ currency: row.currency, amount: row._sum.amount ?? row._sum.subtotal ?? 0 })),
  );
}

/** Sales, commissions and balance: shown only to those who may use the sales area. */
async function moneyFigures(db: ShopDb, where: { affiliateId: string }) {
  const [sales, salesByCurrency, commissionGroups, balance, recentSales, recentCommissions] = await Promise.all([
    db.order.count({ where }),
    db.order.groupBy({ by: ["currency"], where, _sum: { subtotal: true } }),
    db.commission.groupBy({ by: ["status", "currency"], where, _sum: { amount: true } }),
    affiliateBalance(db, where),
    db.order.findMany({
      where,
      orderBy: { placedAt: "desc" },
      take: RECENT,
      select: { id: true, name: true, subtotal: true, currency: true, status: true, placedAt: true },
    }),
    db.commission.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT,
      select: {
        id: true,
        amount: true,
        currency: true,
        status: true,
        level: true,
        kind: true,
        createdAt: true,
        order: { select: { id: true, name: true } },
      },
    }),
  ]);
  const commissions: Record<string, MoneyTotal[]> = {};
  for (const status of new Set(commissionGroups.map((g) => g.status))) {
    commissions[status] = byCurrency(commissionGroups.filter((g) => g.status === status));
  }
  return {
    sales,
    revenue: byCurrency(salesByCurrency),
    commissions,
    balance: balance.payable,
    recentSales: recentSales.map((s) => ({ ...s, placedAt: s.placedAt.toISOString() })),
    recentCommissions: recentCommissions.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })),
  };
}

export async function loadAffiliateDetail(db: ShopDb, id: string, options: { withSales: boolean; now?: Date }) {
  const now = options.now ?? new Date();
  const affiliate = await db.affiliate.findFirst({
    where: { id },
    select: {
      ...AFFILIATE_SUMMARY,
      campaignId: true,
      coupons: { select: { code: true, shopifyStatus: true, shopifyError: true }, orderBy: { code: "asc" } },
      parent: { select: { id: true, firstName: true, lastName: true, referralCode: true, email: true } },
      campaign: { select: { id: true, name: true } },
      tags: { select: { tag: true }, orderBy: { tag: "asc" } },
      signupAnswers: true,
    },
  });
  if (!affiliate) throw new AppError("not_found", "No affiliate with this id.");
  const { signupAnswers, ...shown } = affiliate;

  // The affiliate was found in this shop above, and its clicks, orders and
  // commissions are the shop's: filtering on affiliateId alone lets the
  // click count be answered from the (affiliateId, createdAt) index without
  // reading each click row for its shopId.
  const where = { affiliateId: id };
  const [clicks, clicks30, recruits, recentClicks, money, signupFields, aliases] = await Promise.all([
    db.click.count({ where }),
    db.click.count({ where: { ...where, createdAt: { gte: new Date(now.getTime() - 30 * DAY_MS) } } }),
    db.affiliate.count({ where: { parentId: id } }),
    db.click.findMany({
      where,
      orderBy: { createdAt: "desc" },
      take: RECENT,
      select: { id: true, landingUrl: true, referrer: true, source: true, createdAt: true },
    }),
    options.withSales ? moneyFigures(db, where) : null,
    publishedSignupFields(db.$shopId),
    listAliases(db, id),
  ]);

  return {
    affiliate: {
      ...shown,
      createdAt: affiliate.createdAt.toISOString(),
      coupons: affiliate.coupons.map((c) => c.code),
      tags: affiliate.tags.map((x) => x.tag),
      // Codes not (yet) in Shopify, and why: the page says so next to the field.
      couponIssues: affiliate.coupons
        .filter((c) => c.shopifyStatus !== "created")
        .map((c) => ({ code: c.code, state: c.shopifyStatus, error: c.shopifyError })),
    },
    // Codes from the app the shop used before, still crediting the affiliate.
    aliases,
    // The answers to the merchant's own sign-up fields.
    signupAnswers: signupAnswerRows(signupFields, signupAnswers),
    stats: { clicks, clicks30, recruits },
    recentClicks: recentClicks.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })),
    // null for staff without the sales area: the page shows no order or commission data.
    money,
  };
}

export type AffiliateDetail = Awaited<ReturnType<typeof loadAffiliateDetail>>;
