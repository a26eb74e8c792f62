import type { Tx } from "../../db/transaction";
import { prismaBulk, type BulkSql } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import type { EventHandler, EventSubscriber } from "../events/event-subscriber";
import { queueUnlessWaiting } from "../jobs/enqueue.server";
import { refreshPendingPayouts } from "./refresh-pending-payouts.server";
import { requestTaxFormReminders } from "../tax-forms/tax-form-reminder.server";
import { taxSettingsOf } from "../tax-forms/tax-requirement";

// Pending payouts follow the balances by a job (payouts.refresh), queued by
// the changes that move a balance: a commission line created, approved,
// denied, refunded or voided (the commission.* events), a payout that failed
// (its lines are owed again), bonus lines approved, the minimum changed in
// Settings › Payment. The payouts list only reads: it used to gather the
// lines itself on every view, a write that failed while the job worker held
// SQLite's write lock.

export const PAYOUT_REFRESH_JOB = "payouts.refresh" as const;

/**
 * Queues a refresh of the shop's pending payouts, in the caller's
 * transaction, unless one is already waiting to start: that one runs after
 * this commit and sees the change. `cause` (an event id, a form's
 * submission) keys the job, so a retried caller queues it once.
 */
export async function requestPayoutRefresh(tx: Tx, shopId: string, cause: string) {
  return queuePayoutRefresh(prismaBulk(tx, dialectOf(tx)), shopId, cause);
}

/** requestPayoutRefresh with bulk statements (the event dispatch's writer). */
function queuePayoutRefresh(writer: BulkSql, shopId: string, cause: string) {
  return queueUnlessWaiting(writer, PAYOUT_REFRESH_JOB, { shopId }, shopId, cause);
}

const refreshOnBalanceChange: EventHandler<
  "commission.created" | "commission.updated" | "payout.failed" | "leak.released" | "leak.rotated"
> = async (_reader, event) => (writer) => queuePayoutRefresh(writer, event.shopId, event.id);

/** Event subscriber (app/worker/dispatch-event.server.ts): the events that move a balance queue a refresh. */
export const payoutRefreshSubscriber: EventSubscriber = {
  "commission.created": refreshOnBalanceChange,
  "commission.updated": refreshOnBalanceChange,
  "payout.failed": refreshOnBalanceChange,
  // A leak flag's hold ended (ADR 051): approved lines it kept out may be gathered now.
  "leak.released": refreshOnBalanceChange,
  "leak.rotated": refreshOnBalanceChange,
};

/** The payouts.refresh job: the shop's approved lines gathered into pending payouts. */
export async function runPayoutRefresh(payload: { shopId: string }, tx: Tx, job: { id: string }) {
  const shop = await tx.shop.findUnique({
    where: { id: payload.shopId },
    select: { uninstalledAt: true, settings: true },
  });
  if (!shop || shop.uninstalledAt) return;
  await refreshPendingPayouts(tx, payload.shopId);
  // A payout that appeared or grew may now wait for its affiliate's tax
  // form: its reminder is composed by a job of its own, not under this
  // transaction's write lock.
  if (taxSettingsOf(shop.settings).require !== "off") await requestTaxFormReminders(tx, payload.shopId, job.id);
}
