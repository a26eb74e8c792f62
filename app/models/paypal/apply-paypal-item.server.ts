import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { addPayoutEvent } from "../payouts/payout-history.server";
import { reconcilePaidAfterAll } from "../payouts/reconcile-payout.server";
import { markPayoutFailed, markPayoutPaid, recordPayoutProgress } from "../payouts/settle-payout.server";
import type { PayoutBatchItem } from "./paypal-client.server";
import { itemOutcome } from "./paypal-payout-items";

// One PayPal payout item's state, from the status job or a verified webhook,
// applied to our payout. Idempotent: the same state again changes nothing,
// so polls and repeated webhooks may overlap freely.

export interface PaypalItemUpdate {
  payoutBatchId: string | null;
  payoutItemId: string | null;
  senderItemId: string | null;
  status: string | undefined;
  transactionId: string | null;
  /** PayPal's own words about an item that failed (errors.name / message). */
  error: string | null;
}

export function itemUpdateOf(item: Partial<PayoutBatchItem> & { sender_batch_id?: string }): PaypalItemUpdate {
  const error = item.errors ? [item.errors.name, item.errors.message].filter(Boolean).join(": ") : null;
  return {
    payoutBatchId: item.payout_batch_id ?? null,
    payoutItemId: item.payout_item_id ?? null,
    senderItemId: item.payout_item?.sender_item_id ?? null,
    status: item.transaction_status,
    transactionId: item.transaction_id ?? null,
    error: error || null,
  };
}

export type ApplyResult = "paid" | "failed" | "progress" | "unchanged" | "ignored";

/** The item's PayPal ids and status on the payout, only while the payout is in the state it was read in. */
async function recordItem(tx: Tx, payout: { id: string; shopId: string; status: string }, update: PaypalItemUpdate) {
  await tx.payout.updateMany({
    where: { id: payout.id, shopId: payout.shopId, status: payout.status },
    data: { paypalItemId: update.payoutItemId ?? undefined, paypalItemStatus: update.status },
  });
}

export async function applyPaypalItem(tx: Tx, shopId: string, update: PaypalItemUpdate): Promise<ApplyResult> {
  if (!update.senderItemId || !update.status) return "ignored";
  const payout = await tx.payout.findFirst({
    where: { id: update.senderItemId, shopId, method: "paypal" },
    select: {
      id: true,
      shopId: true,
      status: true,
      paypalItemStatus: true,
      batch: { select: { paypalBatchId: true } },
    },
  });
  // Not ours, or an item of some other batch naming the same id.
  if (!payout) return "ignored";
  const batchId = payout.batch?.paypalBatchId ?? null;
  if (update.payoutBatchId && batchId && update.payoutBatchId !== batchId) return "ignored";
  const outcome = itemOutcome(update.status);
  const sender = { actor: "paypal", by: "sender" as const };

  if (payout.status === "failed" || payout.status === "cancelled") {
    if (outcome.kind === "paid") {
      // PayPal paid it after all: the money left, the payout is paid again
      // (checked every time: before issue 25 such a SUCCESS was only written down).
      await recordItem(tx, payout, update);
      const result = await reconcilePaidAfterAll(tx, shopId, payout.id, {
        reference: update.transactionId,
        actor: "paypal",
      });
      return result.changed ? "paid" : "unchanged";
    }
  }
  if (payout.status !== "processing") {
    // Settled already (a SUCCESS later REFUNDED or REVERSED by the receiver):
    // our payout stays as it is; the merchant sees what PayPal reported.
    if (payout.paypalItemStatus === update.status) return "unchanged";
    await recordItem(tx, payout, update);
    await addPayoutEvent(tx, shopId, payout.id, {
      status: payout.status,
      message: historyLine(update),
      actor: "paypal",
    });
    return "unchanged";
  }
  if (payout.paypalItemStatus === update.status && outcome.kind !== "paid") return "unchanged";
  switch (outcome.kind) {
    case "paid": {
      await recordItem(tx, payout, update);
      const paid = await markPayoutPaid(tx, shopId, payout.id, { reference: update.transactionId, ...sender });
      return paid.changed ? "paid" : "unchanged";
    }
    case "failed": {
      await recordItem(tx, payout, update);
      const failed = await markPayoutFailed(tx, shopId, payout.id, {
        reason: msg(outcome.reasonKey, { detail: update.error ?? update.status }),
        ...sender,
      });
      return failed.changed ? "failed" : "unchanged";
    }
    case "progress":
    case "unknown":
      await recordPayoutProgress(tx, shopId, payout.id, {
        message: historyLine(update),
        fields: { paypalItemId: update.payoutItemId ?? undefined, paypalItemStatus: update.status },
        ...sender,
      });
      return "progress";
  }
}

function historyLine(update: PaypalItemUpdate): string {
  const status = `${update.status}${update.error ? ` (${update.error})` : ""}`;
  return msg("Payouts:paypal.history.status", { status });
}
