import { randomUUID } from "node:crypto";
import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { emitEvent } from "../events/emit-event.server";
import { addPayoutEvent } from "./payout-history.server";
import { payoutTransition } from "./payout-states";
import { refreshPendingPayouts } from "./refresh-pending-payouts.server";
import { closeBatchIfDone } from "./settle-payout.server";

// PayPal reported that it paid an item the app had counted as failed or
// cancelled (a late SUCCESS; or, before issue 25, a payout someone marked
// failed by hand while PayPal still held it). The money left, so the app
// records it rather than only writing history:
//
// 1. the payout becomes paid (compare-and-set on the state it was read in);
// 2. it takes back the lines it released (PayoutRelease) that are still
//    unpaid (loose: a pending payout holds no lines, ADR 058);
// 3. what it paid beyond those lines (they were paid again by a retry, or the
//    release was not recorded) was paid twice: an "overpayment" line of that
//    amount, paid, keeps the payout equal to its lines, and an approved
//    negative line of the same amount takes it back from the next payout, the
//    way a refund after payout does;
// 4. payout.paid is emitted with the status it came from, which tells the
//    merchant (e-mail) and integrators (webhook); the payout screen says it.

export interface ReconcileResult {
  changed: boolean;
  /** Minor units paid twice (taken back from the next payout). */
  overpaid: number;
}

export async function reconcilePaidAfterAll(
  tx: Tx,
  shopId: string,
  payoutId: string,
  input: { reference: string | null; actor: string },
): Promise<ReconcileResult> {
  const payout = await tx.payout.findFirst({ where: { id: payoutId, shopId } });
  if (!payout || payout.status === "paid") return { changed: false, overpaid: 0 };
  if (!payoutTransition(payout, "paid", "sender").ok) return { changed: false, overpaid: 0 };
  const now = new Date();
  const moved = await tx.payout.updateMany({
    where: { id: payout.id, shopId, status: payout.status },
    data: {
      status: "paid",
      openKey: null,
      paidAt: now,
      reconciledAt: now,
      reference: input.reference ?? payout.reference,
    },
  });
  // Another follow-up got there first: it did all of this.
  if (moved.count !== 1) return { changed: false, overpaid: 0 };

  const released = await tx.payoutRelease.findMany({
    where: { payoutId: payout.id, shopId },
    select: { commissionId: true },
  });
  const lines = await tx.commission.findMany({
    where: { shopId, id: { in: released.map((r) => r.commissionId) } },
    select: { id: true, amount: true, status: true, payoutId: true },
  });
  const back = lines.filter((l) => l.status === "approved" && l.payoutId === null);
  if (back.length) {
    const taken = await tx.commission.updateMany({
      // Still loose: a batch that took one meanwhile keeps it.
      where: { shopId, id: { in: back.map((l) => l.id) }, status: "approved", payoutId: null },
      data: { payoutId: payout.id, status: "paid" },
    });
    if (taken.count !== back.length) throw new Error(`reconcile ${payout.id}: lines changed meanwhile`);
  }
  const overpaid = payout.amount - back.reduce((sum, l) => sum + l.amount, 0);
  if (overpaid !== 0) {
    const line = {
      shopId,
      orderId: null,
      affiliateId: payout.affiliateId,
      level: 1,
      kind: "overpayment",
      sourceRef: payout.id,
      currency: payout.currency,
      createdAt: now,
      updatedAt: now,
    };
    await tx.commission.createMany({
      data: [
        {
          ...line,
          id: randomUUID(),
          amount: overpaid,
          status: "paid",
          payoutId: payout.id,
          bonusKey: `overpayment:${payout.id}`,
          explanation: msg("Payouts:reconciled.overpaidLine"),
        },
        {
          ...line,
          id: randomUUID(),
          amount: -overpaid,
          status: "approved",
          payoutId: null,
          bonusKey: `overpayment-recovery:${payout.id}`,
          explanation: msg("Payouts:reconciled.recoveryLine"),
        },
      ],
    });
  }
  // The lines taken back left the balance a pending payout shows: it shows
  // what is left (or is cancelled below the minimum), the recovery line too.
  if (back.length > 0 || overpaid !== 0) {
    await refreshPendingPayouts(tx, shopId, { affiliateIds: [payout.affiliateId] });
  }
  await addPayoutEvent(tx, shopId, payout.id, {
    status: "paid",
    message: msg("Payouts:reconciled.history", { from: payout.status }),
    actor: input.actor,
  });
  await emitEvent(tx, shopId, "payout.paid", {
    payoutId: payout.id,
    affiliateId: payout.affiliateId,
    method: payout.method,
    amount: payout.amount,
    currency: payout.currency,
    previousStatus: payout.status as "failed" | "cancelled",
    overpaid,
  });
  await closeBatchIfDone(tx, payout.batchId);
  return { changed: true, overpaid };
}
