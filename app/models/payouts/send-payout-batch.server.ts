import type { Db } from "../../db.server";
import { isPayoutMethod } from "./payout-states";
import { PAYOUT_SENDERS } from "./senders/index.server";
import { markPayoutFailed } from "./settle-payout.server";

// The payouts.send-batch job: hands a batch to the sender of its method. A
// batch whose method has no sender (not installed in this build) is not
// left hanging: its payouts fail with a reason the merchant can act on and
// their lines go back into the balance.

export async function sendPayoutBatch(db: Db, batchId: string): Promise<void> {
  const batch = await db.payoutBatch.findUnique({
    where: { id: batchId },
    select: { id: true, shopId: true, method: true, status: true },
  });
  if (!batch || batch.status === "done" || batch.status === "failed") return;
  const sender = isPayoutMethod(batch.method) ? PAYOUT_SENDERS[batch.method] : undefined;
  if (!sender || !isPayoutMethod(batch.method)) {
    await db.$transaction(async (tx) => {
      const open = await tx.payout.findMany({
        where: { batchId: batch.id, status: "processing" },
        select: { id: true },
      });
      for (const p of open) {
        await markPayoutFailed(tx, batch.shopId, p.id, { reason: `no_sender:${batch.method}`, actor: "system" });
      }
      await tx.payoutBatch.update({ where: { id: batch.id }, data: { status: "failed", lastError: "no sender" } });
    });
    return;
  }
  await sender(db, { id: batch.id, shopId: batch.shopId, method: batch.method });
}
