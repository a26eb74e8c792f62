import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { chunks } from "../../lib/chunks";
import { emitEvent, emitEvents } from "../events/emit-event.server";
import { addPayoutEvent } from "./payout-history.server";
import { attachLinesLeavingPending, recordReleasedLines, sumPayoutsFromLines } from "./payout-sql.server";
import { batchFromStates, payoutTransition, type PayoutActorKind, type PayoutStatus } from "./payout-states";

// How a payout ends: paid (its lines are paid) or failed (its lines go back
// into the balance, payable again). Every way of paying settles through
// here, by hand, CSV import, the PayPal follow-up, store credit, so the
// events and the history are the same whatever the method.
//
// Exactly once (ADR 021): the table in payout-states.ts says who may make a
// change, and the write names the state it read (UPDATE ... WHERE status =
// the status read). Of two writers that read the same state, one updates the
// row and the other updates nothing: it changes nothing else and emits
// nothing. Settling to the state the payout already has returns
// { changed: false } (a sender or a webhook may repeat; the screens answer a
// person's repeat with a 409, payout-admin.server.ts).

const IN_CHUNK = 500;

export interface Actor {
  /** User id, "paypal", "schedule", "api" or "system": who, in the history. */
  actor: string;
  /** Which kind of writer this is, for the transition table. */
  by: PayoutActorKind;
}

type PayoutRow = NonNullable<Awaited<ReturnType<Tx["payout"]["findFirst"]>>>;

async function load(tx: Tx, shopId: string, payoutId: string) {
  const payout = await tx.payout.findFirst({ where: { id: payoutId, shopId } });
  if (!payout) throw new AppError("not_found", msg("Payouts:errors.notFound"));
  return payout;
}

/** The refusal of a change the table does not allow, in words the person can act on. */
export function transitionRefused(payout: { status: string; method: string }, to: PayoutStatus, by: PayoutActorKind) {
  const verdict = payoutTransition(payout, to, by);
  if (verdict.ok) return null;
  return verdict.why === "held"
    ? new AppError("conflict", msg("Payouts:errors.heldBySender", { method: payout.method }))
    : new AppError("conflict", msg("Payouts:errors.transition", { from: payout.status, to }));
}

function check(payout: { status: string; method: string }, to: PayoutStatus, by: PayoutActorKind) {
  const refused = transitionRefused(payout, to, by);
  if (refused) throw refused;
}

/**
 * The compare-and-set: moves the payout from the status it was read in to
 * `to`. False when another writer changed it first (nothing was written).
 */
async function move(tx: Tx, payout: PayoutRow, to: PayoutStatus, data: Record<string, unknown>) {
  const res = await tx.payout.updateMany({
    where: { id: payout.id, shopId: payout.shopId, status: payout.status },
    data: { ...data, status: to },
  });
  return res.count === 1;
}

/**
 * After a lost compare-and-set: a person (or API client) who lost the race
 * gets a 409 that changed nothing, whatever the winner did; a sender or a
 * webhook that lost to the same outcome carries on as "unchanged".
 */
async function lost(tx: Tx, payout: PayoutRow, to: PayoutStatus, by: PayoutActorKind) {
  if (by === "merchant") throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
  const now = await load(tx, payout.shopId, payout.id);
  if (now.status === to) return { changed: false as const, payout: now };
  throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
}

/** A payout leaving pending takes its affiliate's loose lines (ADR 058) and pays what they add up to at that moment. */
async function takeLines(tx: Tx, shopId: string, payoutId: string) {
  await attachLinesLeavingPending(tx, { shopId, ids: [payoutId] });
  await sumPayoutsFromLines(tx, { shopId, ids: [payoutId] });
  return (await tx.payout.findFirstOrThrow({ where: { id: payoutId, shopId }, select: { amount: true } })).amount;
}

/** Completes a batch whose payouts have all reached a final state. */
export async function closeBatchIfDone(tx: Tx, batchId: string | null) {
  if (!batchId) return;
  const open = await tx.payout.count({ where: { batchId, status: { in: ["pending", "processing"] } } });
  if (open > 0) return;
  const failed = await tx.payout.count({ where: { batchId, status: { in: ["failed", "cancelled"] } } });
  const total = await tx.payout.count({ where: { batchId } });
  const status = failed === total && total > 0 ? "failed" : "done";
  await tx.payoutBatch.updateMany({
    where: { id: batchId, completedAt: null, status: { in: batchFromStates(status) } },
    data: { status, completedAt: new Date() },
  });
}

/**
 * Lines a payout gives back when it fails or is cancelled after it left
 * pending are recorded first (PayoutRelease): if PayPal pays the item after
 * all, the payout takes them back (reconcile-payout.server.ts), and the money
 * checker can tell a line that two payouts paid.
 */
async function releaseLines(tx: Tx, payout: PayoutRow, now: Date) {
  if (payout.status !== "pending") await recordReleasedLines(tx, payout, now);
  // Back into the balance: the lines are payable again (a retry gathers them).
  await tx.commission.updateMany({ where: { shopId: payout.shopId, payoutId: payout.id }, data: { payoutId: null } });
}

export async function markPayoutPaid(
  tx: Tx,
  shopId: string,
  payoutId: string,
  input: { reference?: string | null; paidAt?: Date; note?: string | null } & Actor,
) {
  const payout = await load(tx, shopId, payoutId);
  if (payout.status === "paid") return { changed: false as const, payout };
  // failed/cancelled → paid is PayPal's late answer: reconcilePaidAfterAll.
  if (payout.status !== "pending" && payout.status !== "processing") {
    throw new AppError("conflict", msg("Payouts:errors.transition", { from: payout.status, to: "paid" }));
  }
  check(payout, "paid", input.by);
  const paidAt = input.paidAt ?? new Date();
  const moved = await move(tx, payout, "paid", {
    openKey: null,
    paidAt,
    reference: input.reference ?? payout.reference,
    note: input.note ?? payout.note,
    failureReason: null,
    ...(payout.status === "pending" ? { method: "manual" } : {}),
  });
  if (!moved) return lost(tx, payout, "paid", input.by);
  const amount = payout.status === "pending" ? await takeLines(tx, shopId, payout.id) : payout.amount;
  // Its balance went meanwhile (a cancelled order): nothing to pay, and the
  // whole change rolls back.
  if (amount <= 0) throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
  await tx.commission.updateMany({
    where: { shopId, payoutId: payout.id, status: "approved" },
    data: { status: "paid" },
  });
  await addPayoutEvent(tx, shopId, payout.id, {
    status: "paid",
    message: [input.reference, input.note].filter(Boolean).join(" · "),
    actor: input.actor,
  });
  await emitEvent(tx, shopId, "payout.paid", {
    payoutId: payout.id,
    affiliateId: payout.affiliateId,
    method: payout.status === "pending" ? "manual" : payout.method,
    amount,
    currency: payout.currency,
  });
  await closeBatchIfDone(tx, payout.batchId);
  return { changed: true as const, payout: await load(tx, shopId, payout.id) };
}

/**
 * markPayoutPaid for many payouts at once (the paid-CSV import): the same
 * fields, history lines and payout.paid events, in a statement per payout
 * and bulk statements for the rest instead of about ten per payout. A payout
 * already paid is left as it is; one that cannot be paid refuses the whole
 * call (the caller's transaction rolls back). Each payout moves with its own
 * compare-and-set: one another writer changed after the read is left out
 * (`paidIds` names those this call paid), never paid twice.
 */
export async function markPayoutsPaid(
  tx: Tx,
  shopId: string,
  rows: { payoutId: string; reference?: string | null; paidAt?: Date; note?: string | null }[],
  input: Actor,
) {
  const byId = new Map<string, PayoutRow>();
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
    // Only payouts that left pending in a batch: their amount is the one exported.
    if (payout.status !== "processing") {
      throw new AppError("conflict", msg("Payouts:errors.transition", { from: payout.status, to: "paid" }));
    }
    check(payout, "paid", input.by);
    seen.add(payout.id);
    paid.push(row);
  }
  const candidates = paid.splice(0);
  for (const row of candidates) {
    const payout = byId.get(row.payoutId)!;
    const moved = await move(tx, payout, "paid", {
      openKey: null,
      paidAt: row.paidAt ?? now,
      reference: row.reference ?? payout.reference,
      note: row.note ?? payout.note,
      failureReason: null,
    });
    // Lost to another writer since the read: its winner wrote the history
    // and the event; this row changes nothing and the caller says why.
    if (moved) paid.push(row);
  }
  for (const part of chunks(paid, IN_CHUNK)) {
    await tx.commission.updateMany({
      where: { shopId, payoutId: { in: part.map((r) => r.payoutId) }, status: "approved" },
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
  return { paid: paid.length, paidIds: paid.map((r) => r.payoutId), unchanged: rows.length - paid.length };
}

export async function markPayoutFailed(tx: Tx, shopId: string, payoutId: string, input: { reason: string } & Actor) {
  const payout = await load(tx, shopId, payoutId);
  if (payout.status === "failed") return { changed: false as const, payout };
  check(payout, "failed", input.by);
  const now = new Date();
  if (!(await move(tx, payout, "failed", { openKey: null, failureReason: input.reason }))) {
    return lost(tx, payout, "failed", input.by);
  }
  await releaseLines(tx, payout, now);
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
  return { changed: true as const, payout: await load(tx, shopId, payout.id) };
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
 * waiting for its answer): history and fields only, the payout stays on its
 * way. Only its sender writes these, and only while it holds the payout.
 */
export async function recordPayoutProgress(
  tx: Tx,
  shopId: string,
  payoutId: string,
  input: { message: string; fields?: ProgressFields } & Actor,
) {
  const payout = await load(tx, shopId, payoutId);
  // Settled by a faster answer (the status job and a webhook overlap): nothing to note.
  if (input.by === "sender" && payout.status !== "processing") return { changed: false as const, payout };
  check(payout, "processing", input.by);
  // Settled meanwhile by a faster answer: a note on the way is moot.
  if (!(await move(tx, payout, "processing", { ...(input.fields ?? {}) }))) return { changed: false as const, payout };
  await addPayoutEvent(tx, shopId, payout.id, { status: "processing", message: input.message, actor: input.actor });
  return { changed: true as const, payout: await load(tx, shopId, payout.id) };
}

/**
 * Takes back a payout that was not sent (pending, or in a manual / CSV batch
 * nobody has paid yet): cancelled, and its lines go back into the balance,
 * where the next refresh gathers them into a new pending payout. A payout a
 * sender holds (PayPal, store credit, codes) cannot be taken back: its
 * answer decides.
 */
export async function cancelPayout(tx: Tx, shopId: string, payoutId: string, input: Actor) {
  const payout = await load(tx, shopId, payoutId);
  if (payout.status === "cancelled") return { changed: false as const, payout };
  check(payout, "cancelled", input.by);
  const now = new Date();
  if (!(await move(tx, payout, "cancelled", { openKey: null }))) return lost(tx, payout, "cancelled", input.by);
  await releaseLines(tx, payout, now);
  await addPayoutEvent(tx, shopId, payout.id, { status: "cancelled", actor: input.actor });
  await closeBatchIfDone(tx, payout.batchId);
  return { changed: true as const, payout: await load(tx, shopId, payout.id) };
}
