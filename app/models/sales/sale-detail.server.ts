import { shownSaleStatus } from "./sale-statuses";
import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { saleActions } from "./sale-explanation";
import { parseReasonValues } from "../attribution/attribution-reason";
import { parseSignals } from "../attribution/reconcile-signals";

// Everything the sale screen shows about one order of the shop: amounts,
// why it was credited (a message key and values), commission lines per level, and the refund and
// cancellation adjustments, as JSON-ready values.

const person = { select: { id: true, firstName: true, lastName: true, referralCode: true } } as const;
const nameOf = (a: { firstName: string; lastName: string }) => `${a.firstName} ${a.lastName}`.trim();

export async function getSaleDetail(db: ShopDb, id: string) {
  const shopId = db.$shopId;
  const order = await db.order.findFirst({
    where: { id, shopId },
    include: {
      affiliate: person,
      commissions: {
        include: { affiliate: person },
        orderBy: [{ level: "asc" }, { createdAt: "asc" }, { id: "asc" }],
      },
    },
  });
  if (!order) throw new AppError("not_found", "No sale with this id.");
  const click = order.clickId
    ? await db.click.findFirst({
        where: { shopId, clickId: order.clickId },
        select: { createdAt: true, landingUrl: true },
      })
    : null;
  const lines = order.commissions.map((c) => ({
    id: c.id,
    level: c.level,
    kind: c.kind,
    amount: c.amount,
    currency: c.currency,
    status: c.status,
    explanation: c.explanation,
    createdAt: c.createdAt.toISOString(),
    affiliate: { id: c.affiliate.id, name: nameOf(c.affiliate), code: c.affiliate.referralCode },
  }));
  const affiliateName = order.affiliate ? nameOf(order.affiliate) : null;
  return {
    id: order.id,
    name: order.name,
    orderGid: order.shopifyGid,
    placedAt: order.placedAt.toISOString(),
    customerEmail: order.customerEmail,
    isNewCustomer: order.isNewCustomer,
    currency: order.currency,
    subtotal: order.subtotal,
    total: order.total,
    // Shopify Markets: the customer's currency and total, and the rate the two totals imply.
    presentment:
      order.presentmentCurrency && order.presentmentTotal !== null
        ? { currency: order.presentmentCurrency, total: order.presentmentTotal, rate: order.presentmentRate }
        : null,
    refundedAmount: order.refundedAmount,
    status: order.status,
    shownStatus: shownSaleStatus({
      status: order.status,
      credited: order.affiliate !== null,
      total: order.total,
      refundedAmount: order.refundedAmount,
    }),
    fulfillment: order.fulfillment,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    approveAfter: order.approveAfter?.toISOString() ?? null,
    discountCodes: parseCodes(order.discountCodes),
    attribution: {
      source: order.attributionSource,
      // Written in the reader's language by the page (attribution-reason.ts);
      // `reason` is the English text of orders recorded before reasons were keys.
      reason: order.attributionReason,
      reasonKey: order.attributionReasonKey,
      reasonValues: parseReasonValues(order.attributionReasonValues),
      affiliate: order.affiliate
        ? { id: order.affiliate.id, name: affiliateName!, code: order.affiliate.referralCode }
        : null,
      click: click ? { at: click.createdAt.toISOString(), landingUrl: click.landingUrl } : null,
      // Which signals agreed with the credit, naming the affiliate any other pointed to (ADR 056).
      signals: parseSignals(order.attributionSignals),
    },
    commissions: lines.filter((l) => l.kind === "sale"),
    adjustments: lines.filter((l) => l.kind !== "sale"),
    netCommission: lines
      .filter((l) => l.status !== "void" && l.status !== "denied")
      .reduce((sum, l) => sum + l.amount, 0),
    // An order credited to nobody owes nothing: there is no decision to take.
    ...(order.affiliate ? saleActions(order.status) : saleActions("none")),
  };
}

function parseCodes(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value
      .map((c) => (typeof c === "string" ? c : typeof c === "object" && c && "code" in c ? String(c.code) : ""))
      .filter(Boolean);
  } catch {
    return [];
  }
}

export type SaleDetail = Awaited<ReturnType<typeof getSaleDetail>>;
