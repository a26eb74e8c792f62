import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { chunks } from "../../lib/chunks";
import { AppError } from "../../lib/errors";
import { enqueueJob } from "../jobs/enqueue.server";
import { totalsByCurrency } from "./payable-balance";
import type { MethodSource } from "./payout-method-for";
import { isSendingMethod, type PayoutMethod } from "./payout-states";
import { attachLinesLeavingPending, lockPayouts, sumPayoutsFromLines } from "./payout-sql.server";
import { shopMethodRefusal } from "./shop-methods.server";
import { taxFormHoldsOf } from "../tax-forms/tax-form-hold.server";
import { splitPaypalBatch } from "../paypal/split-paypal-batch.server";
import { convertsIn } from "../currency/payout-conversion";
import { convertBatchPayouts, rateHoldsOf } from "./payout-currency.server";

// Turns pending payouts into one batch paid by one method. The payouts leave
// pending (openKey = null, so new lines open a fresh pending payout), take
// their lines and wait in "processing": a sending method's job sends them
// after the commit (payouts.send-batch); a manual or CSV batch waits for
// "mark paid".
// Ids are read and moved in groups: one `id in (...)` binds a parameter per
// id, and SQLite and PostgreSQL refuse a statement past their limit
// (Prisma P2029), while auto-pay and "all eligible" may take thousands.

const IN_CHUNK = 500;

/**
 * The transaction options of a Pay (any way of taking payouts out of
 * pending): its lines join their payouts then (ADR 058), a write that grows
 * with the lines paid: a Pay of a million lines measured about 21 s, where
 * the default 5 s would expire it half-way.
 */
export const PAY_TRANSACTION = { timeout: 60_000, maxWait: 30_000 } as const;

export interface BatchInput {
  payoutIds: string[];
  method: PayoutMethod;
  createdBy: string;
  /**
   * Payouts whose method is the shop's default rather than the affiliate's
   * choice, and why (payout-method-for.ts): their history says so.
   */
  fallbacks?: ReadonlyMap<string, Exclude<MethodSource, "choice">>;
}

/** A person's Pay (screens, REST API): all of these payouts or none (409 when one changed meanwhile). */
export async function createPayoutBatch(tx: Tx, shopId: string, input: BatchInput): Promise<{ batchId: string }> {
  const { batchId } = await makeBatch(tx, shopId, input, false);
  if (!batchId) throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
  return { batchId };
}

async function makeBatch(
  tx: Tx,
  shopId: string,
  input: BatchInput,
  takeWhatIsPending: boolean,
): Promise<{ batchId: string | null }> {
  let ids = [...new Set(input.payoutIds)];
  if (ids.length === 0) throw new AppError("validation_failed", msg("Payouts:errors.noneSelected"));
  // A payout waiting for its affiliate's tax form (Settings › Tax forms) is
  // not paid: a person's Pay is refused, auto-pay leaves it pending.
  const held = await taxFormHoldsOf(tx, shopId, ids);
  if (held.size > 0) {
    if (!takeWhatIsPending) {
      throw new AppError("validation_failed", msg("Tax:errors.heldForTaxForm", { count: held.size }), {
        fields: { payoutIds: [...held.keys()][0]! },
      });
    }
    ids = ids.filter((id) => !held.has(id));
    if (ids.length === 0) return { batchId: null };
  }
  // A payout to be paid in the affiliate's currency without a fresh rate
  // waits the same way (ADR 052); methods paying Shopify money never convert.
  if (convertsIn(input.method)) {
    const noRate = await rateHoldsOf(tx, shopId, ids);
    if (noRate.size > 0) {
      if (!takeWhatIsPending) {
        const [id, hold] = [...noRate][0]!;
        throw new AppError(
          "validation_failed",
          msg("Payouts:errors.heldForRate", { count: noRate.size, currency: hold.currency }),
          { fields: { payoutIds: id } },
        );
      }
      ids = ids.filter((id) => !noRate.has(id));
      if (ids.length === 0) return { batchId: null };
    }
  }
  // Every way of paying goes through here: the method must be usable by the shop now (its plan too).
  const refusal = await shopMethodRefusal(tx, shopId, input.method);
  if (refusal) {
    const text = msg(refusal === "plan" ? "Payouts:errors.planWithoutMethod" : "Payouts:errors.methodUnavailable");
    throw new AppError("validation_failed", text, { fields: { method: text } });
  }
  if (!takeWhatIsPending) {
    const payouts: { id: string; status: string; amount: number }[] = [];
    for (const part of chunks(ids, IN_CHUNK)) {
      payouts.push(
        ...(await tx.payout.findMany({
          where: { shopId, id: { in: part } },
          select: { id: true, status: true, amount: true },
        })),
      );
    }
    const byId = new Map(payouts.map((p) => [p.id, p]));
    for (const id of ids) {
      const p = byId.get(id);
      if (!p || p.amount <= 0) {
        throw new AppError("validation_failed", msg("Payouts:errors.notPayable", { id }), {
          fields: { payoutIds: id },
        });
      }
      // Pending when it was chosen, taken (or settled) since: a lost race.
      if (p.status !== "pending") throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
    }
  }
  // Lock the payouts in one order (by id, as the refresh does) before moving
  // them: two batches taking overlapping payouts wait for each other instead
  // of deadlocking on PostgreSQL.
  for (const part of chunks(ids, IN_CHUNK)) {
    await lockPayouts(tx, { shopId, ids: part });
  }
  const now = new Date();
  const batch = await tx.payoutBatch.create({
    data: { shopId, method: input.method, createdBy: input.createdBy, itemCount: 0, totals: "[]" },
    select: { id: true },
  });
  // The compare-and-set of every payout: pending → processing. A payout taken
  // by a concurrent batch (or settled) is not taken twice.
  let moved = 0;
  for (const part of chunks(ids, IN_CHUNK)) {
    const res = await tx.payout.updateMany({
      where: { shopId, id: { in: part }, status: "pending" },
      data: { status: "processing", batchId: batch.id, method: input.method, openKey: null, updatedAt: now },
    });
    moved += res.count;
  }
  if (!takeWhatIsPending && moved !== ids.length) {
    throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
  }
  // Each payout takes its affiliate's loose lines as it leaves pending (ADR
  // 058) and pays what they add up to now: a line approved since the list
  // was read is paid, one a cancelled order voided meanwhile is not.
  await attachLinesLeavingPending(tx, { shopId, batchId: batch.id });
  await sumPayoutsFromLines(tx, { shopId, batchId: batch.id });
  // The affiliate's currency, converted once now: a resend pays the same.
  await convertBatchPayouts(tx, shopId, batch.id, input.method, now);
  const taken = await tx.payout.findMany({
    where: { shopId, batchId: batch.id },
    select: { id: true, amount: true, currency: true },
  });
  if (taken.some((p) => p.amount <= 0)) throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
  if (taken.length === 0) {
    await tx.payoutBatch.delete({ where: { id: batch.id } });
    return { batchId: null };
  }
  // More items than PayPal takes at once: one Pay, several batches (split-paypal-batch.server.ts).
  const parts =
    input.method === "paypal"
      ? await splitPaypalBatch(
          tx,
          shopId,
          { id: batch.id, createdBy: input.createdBy },
          taken.map((p) => p.id),
        )
      : [batch.id];
  const partOf = new Map<string, typeof taken>();
  if (parts.length > 1) {
    for (const p of await tx.payout.findMany({
      where: { shopId, batchId: { in: parts } },
      select: { id: true, amount: true, currency: true, batchId: true },
    })) {
      const list = partOf.get(p.batchId!) ?? [];
      list.push(p);
      partOf.set(p.batchId!, list);
    }
  } else partOf.set(batch.id, taken);
  for (const id of parts) {
    const mine = partOf.get(id) ?? [];
    await tx.payoutBatch.update({
      where: { id },
      data: { itemCount: mine.length, totals: JSON.stringify(totalsByCurrency(mine)) },
    });
  }
  // 6 columns a row: groups of 500 stay far below SQLite's 32,766 parameters.
  for (const part of chunks(
    taken.map((p) => p.id),
    IN_CHUNK,
  )) {
    await tx.payoutEvent.createMany({
      data: part.map((payoutId) => ({
        shopId,
        payoutId,
        status: "processing",
        message: input.fallbacks?.has(payoutId)
          ? `batch:${input.method}:${input.fallbacks.get(payoutId)}`
          : `batch:${input.method}`,
        actor: input.createdBy,
        createdAt: now,
      })),
    });
  }
  if (isSendingMethod(input.method)) {
    for (const id of parts) {
      await enqueueJob(tx, "payouts.send-batch", { batchId: id }, { uniqueKey: `payout-batch:${id}` });
    }
  }
  return { batchId: batch.id };
}

export interface ChoiceBatches {
  /** One batch per method the affiliates are paid by. */
  batches: { batchId: string; method: PayoutMethod; count: number }[];
  /** Payouts left pending: their method cannot be used by the shop now (its plan, PayPal not connected). */
  skipped: { method: PayoutMethod; count: number }[];
}

/**
 * Pays each payout by its affiliate's own method (or the shop's default
 * where they have none): one batch per method. A person's Pay (the dialog,
 * the REST API) is all or nothing, as `createPayoutBatch`; auto-pay takes
 * what is still pending and leaves a method the shop cannot use now pending.
 */
export async function createPayoutBatchesByChoice(
  tx: Tx,
  shopId: string,
  input: {
    payoutIds: string[];
    createdBy: string;
    methodOf: ReadonlyMap<string, { method: PayoutMethod; source: MethodSource }>;
    /** payout id → affiliate id */
    affiliateOf: ReadonlyMap<string, string>;
    takeWhatIsPending: boolean;
    skipUnusable: boolean;
  },
): Promise<ChoiceBatches> {
  type Group = { ids: string[]; fallbacks: Map<string, Exclude<MethodSource, "choice">> };
  const groups = new Map<PayoutMethod, Group>();
  for (const id of new Set(input.payoutIds)) {
    const resolved = input.methodOf.get(input.affiliateOf.get(id) ?? "");
    if (!resolved) throw new AppError("validation_failed", msg("Payouts:errors.notPayable", { id }));
    const group: Group = groups.get(resolved.method) ?? { ids: [], fallbacks: new Map() };
    group.ids.push(id);
    if (resolved.source !== "choice") group.fallbacks.set(id, resolved.source);
    groups.set(resolved.method, group);
  }
  const result: ChoiceBatches = { batches: [], skipped: [] };
  // A stable order: the same payouts make the same batches in the same order.
  for (const [method, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    if (input.skipUnusable && (await shopMethodRefusal(tx, shopId, method))) {
      result.skipped.push({ method, count: group.ids.length });
      continue;
    }
    const { batchId } = await makeBatch(
      tx,
      shopId,
      { payoutIds: group.ids, method, createdBy: input.createdBy, fallbacks: group.fallbacks },
      input.takeWhatIsPending,
    );
    if (!batchId) {
      if (!input.takeWhatIsPending) throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
      continue;
    }
    result.batches.push({ batchId, method, count: group.ids.length });
  }
  return result;
}
