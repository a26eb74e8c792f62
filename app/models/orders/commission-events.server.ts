import type { Tx } from "../../db/transaction";
import { emitEvents } from "../events/emit-event.server";

/**
 * Moves an order's pending commission lines to `status` and announces each
 * (commission.updated), in the caller's transaction.
 */
export async function settlePendingCommissions(tx: Tx, shopId: string, orderId: string, status: "approved" | "denied") {
  const pending = await tx.commission.findMany({
    where: { shopId, orderId, status: "pending" },
    select: { id: true, affiliateId: true, kind: true, amount: true, currency: true },
  });
  if (pending.length === 0) return;
  await tx.commission.updateMany({ where: { id: { in: pending.map((c) => c.id) } }, data: { status } });
  await emitEvents(
    tx,
    shopId,
    "commission.updated",
    pending.map((c) => ({
      commissionId: c.id,
      affiliateId: c.affiliateId,
      orderId,
      kind: c.kind,
      status,
      amount: c.amount,
      currency: c.currency,
    })),
  );
}
