import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { chunks } from "../../lib/chunks";
import { AppError } from "../../lib/errors";
import { enqueueJob } from "../jobs/enqueue.server";
import { totalsByCurrency } from "./payable-balance";
import { isSendingMethod, type PayoutMethod } from "./payout-states";

// Turns pending payouts into one batch paid by one method. The payouts leave
// pending (openKey = null, so new lines open a fresh pending payout) and
// wait in "processing": a sending method's job sends them after the commit
// (payouts.send-batch); a manual or CSV batch waits for "mark paid".
// Ids are read and moved in groups: one `id in (...)` binds a parameter per
// id, and SQLite and PostgreSQL refuse a statement past their limit
// (Prisma P2029), while auto-pay and "all eligible" may take thousands.

const IN_CHUNK = 500;

export async function createPayoutBatch(
  tx: Tx,
  shopId: string,
  input: { payoutIds: string[]; method: PayoutMethod; createdBy: string },
): Promise<{ batchId: string }> {
  const ids = [...new Set(input.payoutIds)];
  if (ids.length === 0) throw new AppError("validation_failed", msg("Payouts:errors.noneSelected"));
  const payouts: { id: string; status: string; amount: number; currency: string }[] = [];
  for (const part of chunks(ids, IN_CHUNK)) {
    payouts.push(
      ...(await tx.payout.findMany({
        where: { shopId, id: { in: part } },
        select: { id: true, status: true, amount: true, currency: true },
      })),
    );
  }
  const byId = new Map(payouts.map((p) => [p.id, p]));
  for (const id of ids) {
    const p = byId.get(id);
    if (!p || p.status !== "pending" || p.amount <= 0) {
      throw new AppError("validation_failed", msg("Payouts:errors.notPayable", { id }), { fields: { payoutIds: id } });
    }
  }
  const now = new Date();
  const batch = await tx.payoutBatch.create({
    data: {
      shopId,
      method: input.method,
      createdBy: input.createdBy,
      itemCount: payouts.length,
      totals: JSON.stringify(totalsByCurrency(payouts)),
    },
    select: { id: true },
  });
  // Guarded by status: a payout taken by a concurrent batch is not taken twice.
  let moved = 0;
  for (const part of chunks(ids, IN_CHUNK)) {
    const res = await tx.payout.updateMany({
      where: { shopId, id: { in: part }, status: "pending" },
      data: { status: "processing", batchId: batch.id, method: input.method, openKey: null, updatedAt: now },
    });
    moved += res.count;
  }
  if (moved !== ids.length) throw new AppError("conflict", msg("Payouts:errors.changedMeanwhile"));
  // 6 columns a row: groups of 500 stay far below SQLite's 32,766 parameters.
  for (const part of chunks(ids, IN_CHUNK)) {
    await tx.payoutEvent.createMany({
      data: part.map((payoutId) => ({
        shopId,
        payoutId,
        status: "processing",
        message: `batch:${input.method}`,
        actor: input.createdBy,
        createdAt: now,
      })),
    });
  }
  if (isSendingMethod(input.method)) {
    await enqueueJob(tx, "payouts.send-batch", { batchId: batch.id }, { uniqueKey: `payout-batch:${batch.id}` });
  }
  return { batchId: batch.id };
}
