import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { chunks } from "../../lib/chunks";
import { emitEvent, emitEvents } from "../events/emit-event.server";
import { addPayoutEvent } from "./payout-history.server";
import { canTransition } from "./payout-states";

// How a payout ends: paid (its lines are paid) or failed (its lines go back
// into the balance, payable again). Every way of paying settles through
// here, by hand, CSV import, the PayPal follow-up, store credit, so the
// events and the history are the same whatever the method. Settling twice
// to the same state changes nothing: a sender or a webhook may repeat.

const IN_CHUNK = 500;

export interface Actor {
  /** User id, "paypal", "schedule", "api" or "system". */
  actor: string;
}

async function load(tx: Tx, shopId: string, payoutId: string) {
  const payout = await tx.payout.findFirst({ where: { id: payoutId, shopId } });
  if (!payout) throw new AppError("not_found", msg("Payouts:errors.notFound"));
  return payout;
}

function refuse(from: string, to: string): never {
  throw new AppError("conflict", msg("Payouts:errors.transition", { from, to }));
}

/** Completes a batch whose payouts have all reached a final state. */
async function closeBatchIfDone(tx: Tx, batchId: string | null) {
  if (!batchId) return;
  const open = await tx.payout.count({ where: { batchId, status: { in: ["pending", "processing"] } } });
  if (open > 0) return;
  const failed = await tx.payout.count({ where: { batchId, status: "failed" } });
  const total = await tx.payout.count({ where: { batchId } });
  await tx.payoutBatch.updateMany({
    where: { id: batchId, completedAt: null },
    data: { status: failed === total && total > 0 ? "failed" : "done", completedAt: new Date() },
  });
}

export async function markPayoutPaid(
  tx: Tx,
  shopId: string,
  payoutId: string,
  input: { reference?: string | null; paidAt?: Date; note?: string | null } & Actor,
) {
  const payout = await load(tx, shopId, payoutId);
  if (payout.status === "paid") return { changed: false as const, payout };
  if (!canTransition(payout.status, "paid")) refuse(payout.status, "paid");
  const paidAt = input.paidAt ?? new Date();
  const updated = await tx.payout.update({
    where: { id: payout.id },
    data: {
      status: "paid",
      openKey: null,
      paidAt,
      reference: input.reference ?? payout.reference,
      note: input.note ?? payout.note,
      failureReason: null,
    },
  });
  await tx.commission.updateMany({ where: { shopId, payoutId: payout.id }, data: { status: "paid" } });
  await addPayoutEvent(tx, shopId, payout.id, {
    status: "paid",
    message: [input.reference, input.note].filter(Boolean).join(" · "),
    actor: input.actor,
  });
  await emitEvent(tx, shopId, "payout.paid", {
    payoutId: payout.id,
    affiliateId: payout.affiliateId,
    method: payout.method,
    amount: payout.amount,
    currency: payout.currency,
  });
  await closeBatchIfDone(tx, payout.batchId);
  return { changed: true as const, payout: updated };
}

/**
 * markPayoutPaid for many payouts at once (the paid-CSV import): the same
 * fields, history lines and payout.paid events, in a statement per payout
 * and bulk statements for the rest instead of about ten per payout. A payout
 * already paid is left as it is; one that cannot be paid refuses the whole
 * call (the caller's transaction rolls back).
 */
export async function markPayoutsPaid(
  tx: Tx,
  shopId: string,
  rows: { payoutId: string; reference?: string | null; paidAt?: Date; note?: string | null }[],
  input: Actor,
) {
  const byId = new Map<string, Awaited<ReturnType<typeof tx.payout.findMany>>[number]>();
  for (const part of chunks([...new Set(rows.map((r) => r.payoutId))], IN_CHUNK)) {
    for (const p of await tx.payout.findMany({ where: { shopId, id: { in: part } } })) byId.set(p.id, p);
  }
  const now = new Date();
  const paid: typeof rows = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const payout = byId.get(row.payoutId);
    if (!payout) throw new AppError("not_found", msg("Payouts:errors.notFound"));
    if (payout.status === "paid" || seen.has(payout.id)) continue;
    if (!canTransition(payout.status, "paid")) refuse(payout.status, "paid");
    seen.add(payout.id);
    paid.push(row);
  }
  for (const row of paid) {
    const payout = byId.get(row.payoutId)!;
    // Guarded by status: a payout settled meanwhile is not paid twice.
    const res = await tx.payout.updateMany({
      where: { id: payout.id, status: payout.status },
      data: {
        status: "paid",
        openKey: null,
        paidAt: row.paidAt ?? now,
        reference: row.reference ?? payout.reference,
        note: row.note ?? payout.note,
        failureReason: null,
      },
    });
    if (res.count !== 1) throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
  }
  for (const part of chunks(paid, IN_CHUNK)) {
    await tx.commission.updateMany({
      where: { shopId, payoutId: { in: part.map((r) => r.payoutId) } },
      data: { status: "paid" },
    });
    await tx.payoutEvent.createMany({
      data: part.map((row) => ({
        shopId,
        payoutId: row.payoutId,
        status: "paid",
        message: [row.reference, row.note].filter(Boolean).join(" · "),
        actor: input.actor,
        createdAt: now,
      })),
    });
  }
  await emitEvents(
    tx,
    shopId,
    "payout.paid",
    paid.map((row) => {
      const p = byId.get(row.payoutId)!;
      return { payoutId: p.id, affiliateId: p.affiliateId, method: p.method, amount: p.amount, currency: p.currency };
    }),
  );
  for (const batchId of new Set(paid.map((r) => byId.get(r.payoutId)!.batchId))) await closeBatchIfDone(tx, batchId);
  return { paid: paid.length, unchanged: rows.length - paid.length };
}

export async function markPayoutFailed(tx: Tx, shopId: string, payoutId: string, input: { reason: string } & Actor) {
  const payout = await load(tx, shopId, payoutId);
  if (payout.status === "failed") return { changed: false as const, payout };
  if (!canTransition(payout.status, "failed")) refuse(payout.status, "failed");
  const updated = await tx.payout.update({
    where: { id: payout.id },
    data: { status: "failed", openKey: null, failureReason: input.reason },
  });
  // Back into the balance: the lines are payable again (a retry gathers them).
  await tx.commission.updateMany({ where: { shopId, payoutId: payout.id }, data: { payoutId: null } });
  await addPayoutEvent(tx, shopId, payout.id, { status: "failed", message: input.reason, actor: input.actor });
  await emitEvent(tx, shopId, "payout.failed", {
    payoutId: payout.id,
    affiliateId: payout.affiliateId,
    method: payout.method,
    amount: payout.amount,
    currency: payout.currency,
    reason: input.reason,
  });
  await closeBatchIfDone(tx, payout.batchId);
  return { changed: true as const, payout: updated };
}

/** Fields a sender may record while a payout is on its way. */
export interface ProgressFields {
  reference?: string | null;
  paypalItemId?: string | null;
  paypalItemStatus?: string | null;
  discountCode?: string | null;
  sentAt?: Date | null;
}

/**
 * An intermediate state (PayPal UNCLAIMED, ONHOLD, a sent store credit
 * waiting for its answer): history and fields only, the payout stays open.
 */
export async function recordPayoutProgress(
  tx: Tx,
  shopId: string,
  payoutId: string,
  input: { status?: "processing"; message: string; fields?: ProgressFields } & Actor,
) {
  const payout = await load(tx, shopId, payoutId);
  const status = input.status ?? payout.status;
  if (status !== payout.status && !canTransition(payout.status, status)) refuse(payout.status, status);
  const updated = await tx.payout.update({
    where: { id: payout.id },
    data: { ...(input.fields ?? {}), status, ...(status !== "pending" ? { openKey: null } : {}) },
  });
  await addPayoutEvent(tx, shopId, payout.id, { status, message: input.message, actor: input.actor });
  return { changed: true as const, payout: updated };
}

/**
 * Takes back a payout that was not sent (pending, or in a manual / CSV batch
 * nobody has paid yet): cancelled, and its lines go back into the balance,
 * where the next refresh gathers them into a new pending payout. A payout a
 * sender already has (PayPal, store credit, codes) cannot be taken back
 * here: its answer decides.
 */
export async function cancelPayout(tx: Tx, shopId: string, payoutId: string, input: Actor) {
  const payout = await load(tx, shopId, payoutId);
  if (payout.status === "cancelled") return { changed: false as const, payout };
  if (!canTransition(payout.status, "cancelled")) refuse(payout.status, "cancelled");
  if (payout.status === "processing" && !["manual", "csv"].includes(payout.method)) {
    throw new AppError("conflict", msg("Payouts:errors.alreadySent"));
  }
  const updated = await tx.payout.update({ where: { id: payout.id }, data: { status: "cancelled", openKey: null } });
  await tx.commission.updateMany({ where: { shopId, payoutId: payout.id }, data: { payoutId: null } });
  await addPayoutEvent(tx, shopId, payout.id, { status: "cancelled", actor: input.actor });
  await closeBatchIfDone(tx, payout.batchId);
  return { changed: true as const, payout: updated };
}
