import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import type { Role } from "../../lib/areas";
import type { Tx } from "../../db/transaction";
import { chunks } from "../../lib/chunks";
import { methodsOfAffiliates } from "./affiliate-payout-choice.server";
import { createPayoutBatch, createPayoutBatchesByChoice, PAY_TRANSACTION } from "./create-payout-batch.server";
import { paymentSettingsOf } from "./payment-settings";
import type { PayMethod, PayoutAction } from "./payout-list-query";
import { methodRefusal } from "./method-usable";
import { methodContext } from "./shop-methods.server";
import { isSendingMethod, merchantActionsFor, PAYOUT_METHODS, type PayoutMethod } from "./payout-states";
import { refreshPendingPayouts } from "./refresh-pending-payouts.server";
import { cancelPayout, markPayoutFailed, markPayoutPaid, transitionRefused } from "./settle-payout.server";
import { startOfShopDay } from "../../lib/shop-day";
import { sendPaypalBatchAgain } from "../paypal/send-batch-again.server";

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

/** The methods this shop can pay with now (its connections and its current plan), and whether each needs the admin. */
export async function availableMethods(db: ShopDb) {
  const ctx = await methodContext(db, db.$shopId);
  return PAYOUT_METHODS.map((method) => {
    const refusal = methodRefusal(method, ctx);
    return { method, enabled: refusal === null, refusal, adminOnly: isSendingMethod(method) };
  });
}

export async function requireMethodAllowed(db: ShopDb, caller: Caller, method: PayoutMethod) {
  methodAllowed(await availableMethods(db), caller, method);
}

function methodAllowed(methods: Awaited<ReturnType<typeof availableMethods>>, caller: Caller, method: PayoutMethod) {
  const found = methods.find((m) => m.method === method);
  if (!found?.enabled) {
    const text = msg(
      found?.refusal === "plan" ? "Payouts:errors.planWithoutMethod" : "Payouts:errors.methodUnavailable",
    );
    throw new AppError("validation_failed", text, { fields: { method: text } });
  }
  if (found.adminOnly && caller.role !== "admin") throw new AppError("forbidden", msg("Payouts:errors.adminOnly"));
}

/**
 * The list's Pay: one batch of the selected pending payouts, or with
 * "choice" one batch per method the affiliates are paid by (their own
 * choice, the shop's default where they have none). All or nothing: a
 * method the caller may not use refuses the whole Pay.
 */
export async function payPayouts(db: ShopDb, caller: Caller, input: { ids: string[]; method: PayMethod }) {
  const method = input.method;
  if (method !== "choice") {
    await requireMethodAllowed(db, caller, method);
    const { batchId } = await db.$transaction(
      (tx) => createPayoutBatch(tx, db.$shopId, { payoutIds: input.ids, method, createdBy: actorOf(caller) }),
      PAY_TRANSACTION,
    );
    return { batchId, batches: [{ batchId, method, count: input.ids.length }] };
  }
  return db.$transaction((tx) => payByChoice(db, tx, caller, input.ids), PAY_TRANSACTION);
}

/** Pays these pending payouts each by its affiliate's method (the dialog's "choice", the REST API without a method). */
export async function payByChoice(db: ShopDb, tx: Tx, caller: Caller, payoutIds: string[]) {
  const shopId = db.$shopId;
  const [methods, shop] = await Promise.all([
    availableMethods(db),
    tx.shop.findUniqueOrThrow({ where: { id: shopId }, select: { settings: true } }),
  ]);
  const affiliateOf = new Map<string, string>();
  for (const part of chunks([...new Set(payoutIds)], 500)) {
    const rows = await tx.payout.findMany({
      where: { shopId, id: { in: part } },
      select: { id: true, affiliateId: true },
    });
    for (const r of rows) affiliateOf.set(r.id, r.affiliateId);
  }
  const methodOf = await methodsOfAffiliates(tx, shopId, [...affiliateOf.values()], paymentSettingsOf(shop.settings));
  for (const m of new Set([...methodOf.values()].map((r) => r.method))) methodAllowed(methods, caller, m);
  const { batches } = await createPayoutBatchesByChoice(tx, shopId, {
    payoutIds,
    affiliateOf,
    methodOf,
    createdBy: actorOf(caller),
    takeWhatIsPending: false,
    skipUnusable: false,
  });
  return { batchId: batches[0]?.batchId ?? null, batches };
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
  const by = "merchant" as const;
  switch (action.intent) {
    case "show-details":
      return { payoutId };
    case "mark-paid": {
      const paidAt = action.paidOn ? (startOfShopDay(action.paidOn, timezone) ?? undefined) : undefined;
      if (paidAt && paidAt.getTime() > Date.now()) {
        throw new AppError("validation_failed", msg("Payouts:errors.future"), { fields: { paidOn: "future" } });
      }
      await changedOrConflict(
        db.$transaction(
          (tx) =>
            markPayoutPaid(tx, shopId, payoutId, { reference: action.reference, note: action.note, paidAt, actor, by }),
          PAY_TRANSACTION,
        ),
      );
      return { payoutId };
    }
    case "mark-failed":
      await changedOrConflict(
        db.$transaction((tx) => markPayoutFailed(tx, shopId, payoutId, { reason: action.reason, actor, by })),
      );
      return { payoutId };
    case "cancel":
      await changedOrConflict(db.$transaction((tx) => cancelPayout(tx, shopId, payoutId, { actor, by })));
      return { payoutId };
    case "send-again": {
      await db.$transaction(async (tx) => {
        const payout = await tx.payout.findFirst({ where: { id: payoutId, shopId }, select: { batchId: true } });
        if (!payout) throw new AppError("not_found", msg("Payouts:errors.notFound"));
        await sendPaypalBatchAgain(tx, shopId, payout.batchId ?? "", actor);
      });
      return { payoutId };
    }
    case "retry": {
      return db.$transaction(async (tx) => {
        const payout = await tx.payout.findFirst({ where: { id: payoutId, shopId } });
        if (!payout) throw new AppError("not_found", msg("Payouts:errors.notFound"));
        if (!merchantActionsFor(payout).retry) {
          throw (
            transitionRefused(payout, "cancelled", by) ??
            new AppError("conflict", msg("Payouts:errors.transition", { from: payout.status, to: "pending" }))
          );
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
 * A person's repeat (a double click, a second tab, another staff member a
 * moment earlier) changed nothing: they are told, with a 409, rather than
 * shown a success that was someone else's.
 */
async function changedOrConflict(result: Promise<{ changed: boolean }>) {
  if (!(await result).changed) throw new AppError("conflict", msg("Payouts:errors.alreadyDone"));
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
