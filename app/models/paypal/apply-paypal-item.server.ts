import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { addPayoutEvent } from "../payouts/payout-history.server";
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

export async function applyPaypalItem(tx: Tx, shopId: string, update: PaypalItemUpdate): Promise<ApplyResult> {
  if (!update.senderItemId || !update.status) return "ignored";
  const payout = await tx.payout.findFirst({
    where: { id: update.senderItemId, shopId, method: "paypal" },
    select: { id: true, status: true, paypalItemStatus: true, batch: { select: { paypalBatchId: true } } },
  });
  // Not ours, or an item of some other batch naming the same id.
  if (!payout) return "ignored";
  const batchId = payout.batch?.paypalBatchId ?? null;
  if (update.payoutBatchId && batchId && update.payoutBatchId !== batchId) return "ignored";
  if (payout.paypalItemStatus === update.status && payout.status !== "processing") return "unchanged";
  if (payout.paypalItemStatus === update.status && itemOutcome(update.status).kind !== "paid") return "unchanged";

  const fields = {
    paypalItemId: update.payoutItemId ?? undefined,
    paypalItemStatus: update.status,
  };
  const outcome = itemOutcome(update.status);
  if (payout.status !== "processing") {
    // Settled already (a SUCCESS later REFUNDED or REVERSED by the receiver):
    // our payout stays as it is; the merchant sees what PayPal reported.
    await tx.payout.update({ where: { id: payout.id }, data: fields });
    await addPayoutEvent(tx, shopId, payout.id, {
      status: payout.status,
      message: historyLine(update),
      actor: "paypal",
    });
    return "unchanged";
  }
  switch (outcome.kind) {
    case "paid":
      await tx.payout.update({ where: { id: payout.id }, data: fields });
      await markPayoutPaid(tx, shopId, payout.id, { reference: update.transactionId, actor: "paypal" });
      return "paid";
    case "failed":
      await tx.payout.update({ where: { id: payout.id }, data: fields });
      await markPayoutFailed(tx, shopId, payout.id, {
        reason: msg(outcome.reasonKey, { detail: update.error ?? update.status }),
        actor: "paypal",
      });
      return "failed";
    case "progress":
    case "unknown":
      await recordPayoutProgress(tx, shopId, payout.id, {
        message: historyLine(update),
        actor: "paypal",
        fields,
      });
      return "progress";
  }
}

function historyLine(update: PaypalItemUpdate): string {
  const status = `${update.status}${update.error ? ` (${update.error})` : ""}`;
  return msg("Payouts:paypal.history.status", { status });
}
