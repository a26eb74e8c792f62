import type { ShopDb } from "../../db/shop-db.server";
import { containsText } from "../../db/text-search.server";
import { AppError } from "../../lib/errors";
import { ADMIN_PAGE_SIZE } from "../pagination/keyset.server";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import { keysetPage, keysetQuery } from "../pagination/keyset.server";
import { maskGiftCardCode } from "./gift-card-code";
import { stuckPaypalBatch } from "../paypal/send-batch-again.server";
import { totalsByCurrency } from "./payable-balance";
import type { PayoutListParams } from "./payout-list-query";
import { merchantActionsFor } from "./payout-states";
import { affiliateMethodView, openBankDetails } from "./affiliate-payout-choice.server";
import { paymentSettingsOf } from "./payment-settings";
import { maskValue } from "./payout-choice";
import { linesOfPayout, payoutLineCounts } from "./payout-line-counts.server";
import { balancesWithoutPayout } from "./payout-sql.server";
import { convertedSelect, convertedView } from "./converted-view";
import { rateHoldMessage, rateHoldsOf } from "./payout-currency.server";

async function shopPaymentSettings(db: ShopDb) {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
  return paymentSettingsOf(shop.settings);
}

/** The payout's affiliate's bank details in full, for the merchant who pays them by hand. */
export async function revealBankDetails(db: ShopDb, payoutId: string) {
  const p = await db.payout.findFirst({
    where: { id: payoutId, shopId: db.$shopId },
    select: { affiliate: { select: { id: true, payoutDetails: true } } },
  });
  if (!p) throw new AppError("not_found", "This payout does not exist.");
  return openBankDetails(db.$shopId, p.affiliate) ?? [];
}

// The admin's payouts list: one tab (status) at a time, newest first, one
// keyset page at a time, with the totals per currency of everything the
// filters match (not just the page).

// A page as long as every admin list's (ADR 025).
export const PAYOUTS_PAGE_SIZE = ADMIN_PAGE_SIZE;
const MAX_MATCHED_AFFILIATES = 100;

async function affiliateIds(db: ShopDb, params: PayoutListParams): Promise<string[] | undefined> {
  if (params.affiliate_id) return [params.affiliate_id];
  if (!params.affiliate) return undefined;
  const text = params.affiliate;
  const rows = await db.affiliate.findMany({
    where: {
      shopId: db.$shopId,
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

function createdRange(params: PayoutListParams, timeZone: string) {
  const since = params.since ? startOfShopDay(params.since, timeZone) : null;
  const until = params.until ? startOfShopDay(nextDay(params.until), timeZone) : null;
  if (!since && !until) return undefined;
  return { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) };
}

export async function listPayoutsPage(db: ShopDb, timezone: string, params: PayoutListParams) {
  const status = params.status ?? "pending";
  const page = { after: params.after, before: params.before, limit: PAYOUTS_PAGE_SIZE };
  const ids = await affiliateIds(db, params);
  const createdAt = createdRange(params, timezone);
  let query;
  try {
    query = keysetQuery("createdAt", page);
  } catch (error) {
    if (error instanceof AppError) throw new AppError("not_found", "This page of the list does not exist.");
    throw error;
  }
  const where = {
    shopId: db.$shopId,
    // "Failed" shows the cancelled ones too: both ended without paying.
    status: status === "failed" ? { in: ["failed", "cancelled"] } : status,
    ...(ids ? { affiliateId: ids.length === 1 ? ids[0]! : { in: ids } } : {}),
    ...(createdAt ? { createdAt } : {}),
  };
  const [fetched, sums, counts] = await Promise.all([
    db.payout.findMany({
      where: { AND: [where, query.where] },
      orderBy: query.orderBy,
      take: query.take,
      select: {
        id: true,
        affiliateId: true,
        amount: true,
        currency: true,
        status: true,
        method: true,
        reference: true,
        failureReason: true,
        createdAt: true,
        paidAt: true,
        ...convertedSelect,
        // The list shows the affiliate's name and e-mail, nothing more (the rows go to the page as JSON).
        affiliate: {
          select: {
            firstName: true,
            lastName: true,
            email: true,
            payoutMethod: true,
            paypalEmail: true,
            payoutDetailsMask: true,
          },
        },
      },
    }),
    db.payout.groupBy({ by: ["currency"], where, _sum: { amount: true }, _count: { _all: true } }),
    db.payout.groupBy({ by: ["status"], where: { shopId: db.$shopId }, _count: { _all: true } }),
  ]);
  const result = keysetPage("createdAt", page, fetched, (row) => row.createdAt);
  const [settings, linesOf] = await Promise.all([shopPaymentSettings(db), payoutLineCounts(db, result.rows)]);
  const countOf = (s: string) => counts.find((c) => c.status === s)?._count._all ?? 0;
  return {
    status,
    payouts: result.rows.map((p) => ({
      id: p.id,
      affiliateId: p.affiliateId,
      amount: p.amount,
      currency: p.currency,
      status: p.status,
      method: p.method,
      reference: p.reference,
      failureReason: p.failureReason,
      createdAt: p.createdAt.toISOString(),
      paidAt: p.paidAt?.toISOString() ?? null,
      lines: linesOf.get(p.id) ?? 0,
      converted: convertedView(p),
      // How the affiliate is paid now (a pending payout is paid so), masked.
      payTo: affiliateMethodView(p.affiliate, settings),
      affiliate: {
        name: `${p.affiliate.firstName} ${p.affiliate.lastName}`.trim() || p.affiliate.email,
        email: p.affiliate.email,
      },
    })),
    totals: totalsByCurrency(sums.map((s) => ({ currency: s.currency, amount: s._sum.amount ?? 0 }))),
    matched: sums.reduce((n, s) => n + s._count._all, 0),
    counts: {
      pending: countOf("pending"),
      processing: countOf("processing"),
      paid: countOf("paid"),
      failed: countOf("failed") + countOf("cancelled"),
    },
    after: result.after,
    before: result.before,
  };
}

/** The columns of a payout's lines on its screen. */
const LINE_SELECT = {
  id: true,
  amount: true,
  currency: true,
  kind: true,
  level: true,
  status: true,
  explanation: true,
  createdAt: true,
  order: { select: { id: true, name: true, placedAt: true } },
} as const;

/** One payout with its lines, batch and history (payouts/{id} and payouts/pending/{id}). */
export async function loadPayoutDetail(db: ShopDb, id: string) {
  const p = await db.payout.findFirst({
    where: { id, shopId: db.$shopId },
    include: {
      affiliate: {
        select: {
          id: true,
          firstName: true,
          lastName: true,
          email: true,
          referralCode: true,
          paypalEmail: true,
          payoutMethod: true,
          payoutDetails: true,
          payoutDetailsMask: true,
        },
      },
      batch: {
        select: { id: true, method: true, status: true, paypalBatchId: true, paypalBatchStatus: true, createdAt: true },
      },
      events: { orderBy: { createdAt: "asc" }, take: 200 },
    },
  });
  if (!p) throw new AppError("not_found", "This payout does not exist.");
  // A pending payout's lines are its affiliate's loose lines (ADR 058).
  const lines = linesOfPayout(db.$shopId, p);
  const [commissions, lineCount, settings, rateHold] = await Promise.all([
    db.commission.findMany({
      where: lines,
      orderBy: { createdAt: "asc" },
      take: 1000,
      select: LINE_SELECT,
    }),
    db.commission.count({ where: lines }),
    shopPaymentSettings(db),
    p.status === "pending" ? rateHoldsOf(db, db.$shopId, [p.id]).then((m) => m.get(p.id)) : undefined,
  ]);
  const payTo = affiliateMethodView(p.affiliate, settings);
  // What PayPal paid twice, when it paid this payout after all (reconcile-payout.server.ts).
  const overpaid = p.reconciledAt
    ? ((
        await db.commission.findFirst({
          where: { shopId: db.$shopId, payoutId: p.id, kind: "overpayment" },
          select: { amount: true },
        })
      )?.amount ?? 0)
    : 0;
  return {
    id: p.id,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    method: p.method,
    reference: p.reference,
    note: p.note,
    failureReason: p.failureReason,
    paypalItemId: p.paypalItemId,
    paypalItemStatus: p.paypalItemStatus,
    discountCode: p.discountCode,
    // The merchant sees a gift card as Shopify shows it to staff: its last four characters.
    giftCardMask: p.giftCardCode ? maskGiftCardCode(p.giftCardCode) : null,
    createdAt: p.createdAt.toISOString(),
    sentAt: p.sentAt?.toISOString() ?? null,
    paidAt: p.paidAt?.toISOString() ?? null,
    reconciledAt: p.reconciledAt?.toISOString() ?? null,
    overpaid,
    // Paid in the affiliate's currency (ADR 052), or waiting for a rate to be.
    converted: convertedView(p),
    rateHold: rateHold ? rateHoldMessage(rateHold) : null,
    // What a merchant user may do with it, from the transition table (payout-states.ts).
    actions: merchantActionsFor(p),
    affiliate: {
      id: p.affiliate.id,
      name: `${p.affiliate.firstName} ${p.affiliate.lastName}`.trim() || p.affiliate.email,
      email: p.affiliate.email,
      code: p.affiliate.referralCode,
      paypalEmail: p.affiliate.paypalEmail,
      payTo,
      // Each bank field with its last four characters only; the whole value
      // takes the screen's "show" (revealBankDetails).
      bankFields:
        payTo.chosen === "bank"
          ? (openBankDetails(db.$shopId, p.affiliate) ?? []).map((d) => ({ label: d.label, value: maskValue(d.value) }))
          : [],
    },
    batch: p.batch
      ? {
          id: p.batch.id,
          method: p.batch.method,
          status: p.batch.status,
          paypalBatchId: p.batch.paypalBatchId,
          paypalBatchStatus: p.batch.paypalBatchStatus,
        }
      : null,
    // A PayPal batch whose send job gave up: the error and "send again".
    stuck: p.status === "processing" ? await stuckPaypalBatch(db, db.$shopId, p.batchId) : null,
    lines: commissions.map((c) => ({
      id: c.id,
      amount: c.amount,
      currency: c.currency,
      kind: c.kind,
      level: c.level,
      status: c.status,
      explanation: c.explanation,
      createdAt: c.createdAt.toISOString(),
      // Bonus lines have no order.
      order: c.order ? { id: c.order.id, name: c.order.name, placedAt: c.order.placedAt.toISOString() } : null,
    })),
    lineCount,
    events: p.events.map((e) => ({
      id: e.id,
      status: e.status,
      message: e.message,
      actor: e.actor,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}
export type PayoutDetail = Awaited<ReturnType<typeof loadPayoutDetail>>;

/** How many affiliates under the minimum the Pending tab lists (the largest balances). */
export const BELOW_MINIMUM_LISTED = 50;

/**
 * The approved lines no pending payout holds: balances under the shop's
 * minimum (or negative, carried over), which the Pending tab shows under the
 * payouts with the minimum, so the dashboard's "commissions waiting for
 * payment" all appear somewhere.
 */
export async function listBelowMinimum(db: ShopDb) {
  const [settings, { byCurrency, largest }] = await Promise.all([
    shopPaymentSettings(db),
    balancesWithoutPayout(db, db.$shopId, BELOW_MINIMUM_LISTED + 1),
  ]);
  const listed = largest.slice(0, BELOW_MINIMUM_LISTED);
  const affiliates = await db.affiliate.findMany({
    where: { shopId: db.$shopId, id: { in: [...new Set(listed.map((r) => r.affiliateId))] } },
    select: { id: true, firstName: true, lastName: true, email: true },
  });
  const byId = new Map(affiliates.map((a) => [a.id, a]));
  return {
    minimum: settings.minimumAmount,
    lines: byCurrency.reduce((n, r) => n + r.lines, 0),
    totals: totalsByCurrency(byCurrency),
    more: largest.length > BELOW_MINIMUM_LISTED,
    rows: listed.map((r) => {
      const a = byId.get(r.affiliateId);
      return {
        affiliateId: r.affiliateId,
        name: a ? `${a.firstName} ${a.lastName}`.trim() || a.email : "",
        email: a?.email ?? "",
        currency: r.currency,
        amount: r.amount,
        lines: r.lines,
      };
    }),
  };
}

/** How many batches on their way the Processing tab shows (the newest). */
export const BATCHES_LISTED = 20;

/**
 * The batches still on their way (a payout of theirs is processing), each
 * with how many of its payouts are settled: the Processing tab shows a
 * progress bar per batch while a sender works through it item by item.
 */
export async function listBatchesInProgress(db: ShopDb) {
  const shopId = db.$shopId;
  const batches = await db.payoutBatch.findMany({
    where: { shopId, payouts: { some: { status: "processing" } } },
    orderBy: { createdAt: "desc" },
    take: BATCHES_LISTED,
    select: { id: true, method: true, status: true, itemCount: true, createdBy: true, createdAt: true },
  });
  if (batches.length === 0) return [];
  const counts = await db.payout.groupBy({
    by: ["batchId", "status"],
    where: { shopId, batchId: { in: batches.map((b) => b.id) } },
    _count: { _all: true },
  });
  const count = (batchId: string, status: string) =>
    counts.find((c) => c.batchId === batchId && c.status === status)?._count._all ?? 0;
  return batches.map((b) => {
    const paid = count(b.id, "paid");
    const failed = count(b.id, "failed") + count(b.id, "cancelled");
    const total = Math.max(b.itemCount, paid + failed + count(b.id, "processing"));
    return {
      id: b.id,
      method: b.method,
      status: b.status,
      createdBy: b.createdBy,
      createdAt: b.createdAt.toISOString(),
      total,
      paid,
      failed,
      settled: paid + failed,
    };
  });
}
