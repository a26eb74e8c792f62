import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { recordBatchEvent } from "../payouts/payout-sql.server";

// "Send again" for a PayPal batch stuck in "sending": its send job used all
// its retries (PayPal unreachable, 5xx) and nobody knows whether PayPal made
// the batch. Sending again re-queues that same job, so the sender posts the
// same body with the same sender_batch_id (the batch's id) and PayPal-Request-Id:
// if PayPal made the batch the first time, it answers "duplicate" and the
// sender reads that batch back by its id instead (ADR 022); nothing can be
// paid twice. Compare-and-set on both rows: the batch must still be sending
// with no PayPal answer stored, and the job must be failed; a second click,
// or a click while the job still tries, is a 409 that changes nothing.

export const sendJobKey = (batchId: string) => `payout-batch:${batchId}`;

export interface StuckBatch {
  batchId: string;
  lastError: string | null;
}

/** The PayPal batch a payout waits in, when that batch is stuck (its job gave up), or null. */
export async function stuckPaypalBatch(
  tx: Pick<Tx, "payoutBatch" | "job">,
  shopId: string,
  batchId: string | null,
): Promise<StuckBatch | null> {
  if (!batchId) return null;
  const batch = await tx.payoutBatch.findFirst({
    where: { id: batchId, shopId, method: "paypal", status: "sending", paypalBatchId: null, completedAt: null },
    select: { id: true, lastError: true },
  });
  if (!batch) return null;
  const job = await tx.job.findUnique({
    where: { uniqueKey: sendJobKey(batch.id) },
    select: { status: true, lastError: true },
  });
  if (job?.status !== "failed") return null;
  return { batchId: batch.id, lastError: batch.lastError ?? job.lastError };
}

export async function sendPaypalBatchAgain(tx: Tx, shopId: string, batchId: string, actor: string) {
  const stuck = await stuckPaypalBatch(tx, shopId, batchId);
  if (!stuck) throw new AppError("conflict", msg("Payouts:paypal.again.notStuck"));
  const now = new Date();
  const requeued = await tx.job.updateMany({
    where: { uniqueKey: sendJobKey(batchId), type: "payouts.send-batch", status: "failed" },
    data: { status: "queued", attempts: 0, runAt: now, lockedUntil: null, lockedBy: null, lastError: null },
  });
  if (requeued.count !== 1) throw new AppError("conflict", msg("Payouts:paypal.again.notStuck"));
  await recordBatchEvent(
    tx,
    { shopId, batchId },
    {
      idSuffix: `:again:${now.getTime()}`,
      message: msg("Payouts:paypal.history.again", { batch: batchId }),
      actor,
      at: now,
    },
  );
}
