import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import type { Role } from "../../lib/areas";
import { createPayoutBatch } from "./create-payout-batch.server";
import type { PayoutAction } from "./payout-list-query";
import { isSendingMethod, PAYOUT_METHODS, type PayoutMethod } from "./payout-states";
import { refreshPendingPayouts } from "./refresh-pending-payouts.server";
import { PAYOUT_SENDERS } from "./senders/index.server";
import { cancelPayout, markPayoutFailed, markPayoutPaid } from "./settle-payout.server";
import { startOfShopDay } from "../../lib/shop-day";

// What the payout screens and the REST API do, on behalf of a merchant user.
// Who may do it: staff with the payouts area record payments made by hand
// (manual / CSV batches, mark paid, mark failed, cancel); starting a batch
// that moves money by itself (PayPal, store credit, discount codes) is for
// the shop's admin only (ADR 021).

export interface Caller {
  id: string | null;
  role: Role;
}

const actorOf = (caller: Caller) => caller.id ?? caller.role;

/** The methods this shop can pay with now, and whether each needs the admin. */
export async function availableMethods(db: ShopDb) {
  const paypal = await db.paypalConnection.findFirst({
    where: { shopId: db.$shopId },
    select: { verifiedAt: true },
  });
  return PAYOUT_METHODS.map((method) => ({
    method,
    enabled:
      method === "paypal"
        ? Boolean(paypal?.verifiedAt) && Boolean(PAYOUT_SENDERS.paypal)
        : isSendingMethod(method)
          ? Boolean(PAYOUT_SENDERS[method])
          : true,
    adminOnly: isSendingMethod(method),
  }));
}

export async function requireMethodAllowed(db: ShopDb, caller: Caller, method: PayoutMethod) {
  const methods = await availableMethods(db);
  const found = methods.find((m) => m.method === method);
  if (!found?.enabled) {
    throw new AppError("validation_failed", msg("Payouts:errors.methodUnavailable"), {
      fields: { method: "unavailable" },
    });
  }
  if (found.adminOnly && caller.role !== "admin") throw new AppError("forbidden", msg("Payouts:errors.adminOnly"));
}

/** The list's Pay: one batch of the selected pending payouts. */
export async function payPayouts(db: ShopDb, caller: Caller, input: { ids: string[]; method: PayoutMethod }) {
  await requireMethodAllowed(db, caller, input.method);
  return db.$transaction((tx) =>
    createPayoutBatch(tx, db.$shopId, { payoutIds: input.ids, method: input.method, createdBy: actorOf(caller) }),
  );
}

/** The payout screen's actions; returns the payout to show next (a retry opens a new pending one). */
export async function applyPayoutAction(
  db: ShopDb,
  caller: Caller,
  payoutId: string,
  action: PayoutAction,
  timezone: string,
): Promise<{ payoutId: string }> {
  const shopId = db.$shopId;
  const actor = actorOf(caller);
  switch (action.intent) {
    case "mark-paid": {
      const paidAt = action.paidOn ? (startOfShopDay(action.paidOn, timezone) ?? undefined) : undefined;
      if (paidAt && paidAt.getTime() > Date.now()) {
        throw new AppError("validation_failed", msg("Payouts:errors.future"), { fields: { paidOn: "future" } });
      }
      await db.$transaction((tx) =>
        markPayoutPaid(tx, shopId, payoutId, { reference: action.reference, note: action.note, paidAt, actor }),
      );
      return { payoutId };
    }
    case "mark-failed":
      await db.$transaction((tx) => markPayoutFailed(tx, shopId, payoutId, { reason: action.reason, actor }));
      return { payoutId };
    case "cancel":
      await db.$transaction((tx) => cancelPayout(tx, shopId, payoutId, { actor }));
      return { payoutId };
    case "retry": {
      return db.$transaction(async (tx) => {
        const payout = await tx.payout.findFirst({ where: { id: payoutId, shopId } });
        if (!payout) throw new AppError("not_found", msg("Payouts:errors.notFound"));
        if (payout.status !== "failed" && payout.status !== "cancelled") {
          throw new AppError("conflict", msg("Payouts:errors.transition", { from: payout.status, to: "pending" }));
        }
        await refreshPendingPayouts(tx, shopId, { affiliateIds: [payout.affiliateId] });
        const open = await tx.payout.findFirst({
          where: { shopId, affiliateId: payout.affiliateId, currency: payout.currency, status: "pending" },
          select: { id: true },
        });
        if (!open) throw new AppError("conflict", msg("Payouts:errors.nothingToRetry"));
        return { payoutId: open.id };
      });
    }
  }
}

/**
 * payouts/pending/{id}: the id of a payout, or of an affiliate whose pending
 * payout is wanted (as the payouts.refresh job last gathered it: a GET does
 * not write).
 */
export async function pendingPayoutId(db: ShopDb, id: string): Promise<string | null> {
  const shopId = db.$shopId;
  const payout = await db.payout.findFirst({ where: { id, shopId }, select: { id: true } });
  if (payout) return payout.id;
  const affiliate = await db.affiliate.findFirst({ where: { id, shopId }, select: { id: true } });
  if (!affiliate) throw new AppError("not_found", msg("Payouts:errors.notFound"));
  const pending = await db.payout.findFirst({
    where: { shopId, affiliateId: affiliate.id, status: "pending" },
    orderBy: { amount: "desc" },
    select: { id: true },
  });
  return pending?.id ?? null;
}
