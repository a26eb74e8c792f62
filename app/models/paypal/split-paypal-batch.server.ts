import { getConfig } from "../../config.server";
import type { Tx } from "../../db/transaction";
import { chunks } from "../../lib/chunks";

// A PayPal batch of more items than PayPal takes in one request
// (PAYPAL_BATCH_MAX_ITEMS, at most 15,000) becomes several batches in the same
// transaction as the merchant's one Pay: each part is its own PayoutBatch,
// so its id is its own sender_batch_id (PayPal refuses a reused one, which
// keeps every part exactly once, ADR 022) and its own send job. The payouts
// are split in id order, so the first part keeps the batch the caller made.

const IN_CHUNK = 500;

/** Moves the payouts past the first part into new batches; returns every part's batch id, the given one first. */
export async function splitPaypalBatch(
  tx: Tx,
  shopId: string,
  batch: { id: string; createdBy: string },
  payoutIds: string[],
  maxItems = getConfig().PAYPAL_BATCH_MAX_ITEMS,
): Promise<string[]> {
  if (payoutIds.length <= maxItems) return [batch.id];
  const ordered = [...payoutIds].sort();
  const parts = chunks(ordered, maxItems);
  const ids = [batch.id];
  for (const part of parts.slice(1)) {
    const made = await tx.payoutBatch.create({
      data: { shopId, method: "paypal", createdBy: batch.createdBy, itemCount: 0, totals: "[]" },
      select: { id: true },
    });
    for (const piece of chunks(part, IN_CHUNK)) {
      await tx.payout.updateMany({
        where: { shopId, batchId: batch.id, id: { in: piece } },
        data: { batchId: made.id },
      });
    }
    ids.push(made.id);
  }
  return ids;
}
