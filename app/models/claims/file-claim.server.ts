import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { msg } from "../../i18n/messages";
import { nextDay, startOfShopDay } from "../../lib/shop-day";
import { emitEvent } from "../events/emit-event.server";
import { CLAIM_LIMITS, type ClaimTerms } from "./claim-input";

// An affiliate claims an order that was not credited to them. The order is
// looked up in the shop by what the affiliate typed; the claim is filed
// whether or not one order matched, and the affiliate is told nothing about
// the match (an e-mail and an order number are a customer's data: the form
// must not answer "yes, this customer bought here"). The one exception is an
// order that is already theirs, which their sales list shows anyway. The
// merchant sees the order found, or that none was.

const DAY = 86_400_000;

/** The one order of the shop the terms name, or null (none, or more than one). */
export async function findClaimedOrder(db: ShopDb, timezone: string, terms: ClaimTerms) {
  const shopId = db.$shopId;
  const select = { id: true, affiliateId: true } as const;
  if (terms.method === "number") {
    const rows = await db.order.findMany({
      where: { shopId, name: terms.orderNumber, customerEmail: terms.email },
      select,
      take: 2,
    });
    return rows.length === 1 ? rows[0]! : null;
  }
  const start = startOfShopDay(terms.day, timezone);
  const end = startOfShopDay(nextDay(terms.day), timezone);
  if (!start || !end) return null;
  const rows = await db.order.findMany({
    where: {
      shopId,
      placedAt: { gte: start, lt: end },
      OR: [{ total: terms.amount }, { subtotal: terms.amount }],
    },
    select,
    take: 2,
  });
  return rows.length === 1 ? rows[0]! : null;
}

export async function fileClaim(
  db: ShopDb,
  shop: { timezone: string; currency: string },
  affiliateId: string,
  terms: ClaimTerms,
  now = new Date(),
) {
  const shopId = db.$shopId;
  const order = await findClaimedOrder(db, shop.timezone, terms);
  if (order?.affiliateId === affiliateId) throw new AppError("conflict", msg("Account.Sales:claims.errors.yours"));
  try {
    return await db.$transaction(async (tx) => {
      const [open, today] = await Promise.all([
        tx.orderClaim.count({ where: { shopId, affiliateId, status: "open" } }),
        tx.orderClaim.count({ where: { shopId, affiliateId, createdAt: { gte: new Date(now.getTime() - DAY) } } }),
      ]);
      if (open >= CLAIM_LIMITS.open || today >= CLAIM_LIMITS.perDay)
        throw new AppError("rate_limited", msg("Account.Sales:claims.errors.tooMany"));
      const claim = await tx.orderClaim.create({
        data: {
          shopId,
          affiliateId,
          orderId: order?.id ?? null,
          // One open claim per affiliate and order (the unique index); an
          // unmatched claim names no order and counts only against the caps.
          openKey: order?.id ?? null,
          method: terms.method,
          orderNumber: terms.method === "number" ? terms.orderNumber : null,
          orderDay: terms.method === "date" ? terms.day : null,
          amount: terms.method === "date" ? terms.amount : null,
          currency: terms.method === "date" ? shop.currency : null,
          message: terms.message,
        },
        select: { id: true, status: true, orderId: true },
      });
      await emitEvent(tx, shopId, "claim.filed", { claimId: claim.id, affiliateId });
      return claim;
    });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002")
      throw new AppError("conflict", msg("Account.Sales:claims.errors.duplicate"));
    throw error;
  }
}

/** The affiliate's own claims, newest first (the order's name only when one matched). */
export async function listAffiliateClaims(db: ShopDb, affiliateId: string, take = 50) {
  const rows = await db.orderClaim.findMany({
    where: { shopId: db.$shopId, affiliateId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
    select: {
      id: true,
      status: true,
      method: true,
      orderNumber: true,
      orderDay: true,
      amount: true,
      currency: true,
      declineNote: true,
      createdAt: true,
      decidedAt: true,
    },
  });
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  }));
}
