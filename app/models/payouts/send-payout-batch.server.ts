import type { Db } from "../../db.server";
import { msg } from "../../i18n/messages";
import { isPayoutMethod } from "./payout-states";
import { PAYOUT_SENDERS } from "./senders/index.server";
import { markPayoutFailed } from "./settle-payout.server";
import { shopMethodRefusal } from "./shop-methods.server";

// The payouts.send-batch job: hands a batch to the sender of its method.
// Before anything is sent, the shop must still be able to pay this way (its
// plan now, not when the batch was made; the sender this build has): if it
// cannot, the batch's payouts fail with a reason the merchant can act on and
// their lines go back into the balance, instead of hanging or paying through
// a method the shop no longer has. Once a sender has started (a rerun after a
// crash), it finishes: the money may be on its way.

export async function sendPayoutBatch(db: Db, batchId: string): Promise<void> {
  const batch = await db.payoutBatch.findUnique({
    where: { id: batchId },
    select: { id: true, shopId: true, method: true, status: true },
  });
  if (!batch || batch.status === "done" || batch.status === "failed") return;
  const sender = isPayoutMethod(batch.method) ? PAYOUT_SENDERS[batch.method] : undefined;
  const refusal = !sender || !isPayoutMethod(batch.method) ? "no_sender" : await untouchedRefusal(db, batch);
  if (refusal) {
    const reason = refusal === "plan" ? msg("Payouts:errors.planWithoutMethod") : `no_sender:${batch.method}`;
    await db.$transaction(async (tx) => {
      const open = await tx.payout.findMany({
        where: { batchId: batch.id, status: "processing" },
        select: { id: true },
      });
      for (const p of open) {
        await markPayoutFailed(tx, batch.shopId, p.id, { reason, actor: "system", by: "sender" });
      }
      await tx.payoutBatch.updateMany({
        where: { id: batch.id, status: "created" },
        data: { status: "failed", lastError: refusal, completedAt: new Date() },
      });
    });
    return;
  }
  await sender!(db, { id: batch.id, shopId: batch.shopId, method: batch.method as never });
}

/** Why a batch no sender has touched yet cannot be sent now (the shop's plan), or null. */
async function untouchedRefusal(db: Db, batch: { shopId: string; method: string; status: string }) {
  if (batch.status !== "created" || !isPayoutMethod(batch.method)) return null;
  const refusal = await shopMethodRefusal(db, batch.shopId, batch.method);
  // "not_connected" is the PayPal sender's own answer (with its own reason).
  return refusal === "plan" ? refusal : null;
}
