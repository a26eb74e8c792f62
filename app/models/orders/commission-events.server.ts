import type { Tx } from "../../db/transaction";
import { commissionFromStates } from "../commissions/commission-states";
import { emitEvents } from "../events/emit-event.server";

/**
 * Moves an order's pending commission lines to `status` and announces each
 * (commission.updated), in the caller's transaction. The write names the
 * state it expects, and only the lines it moved are announced: a concurrent
 * writer that moved a line first announced it.
 */
export async function settlePendingCommissions(tx: Tx, shopId: string, orderId: string, status: "approved" | "denied") {
  const moved = await tx.commission.updateManyAndReturn({
    where: { shopId, orderId, status: { in: commissionFromStates(status) } },
    data: { status },
    select: { id: true, affiliateId: true, kind: true, amount: true, currency: true },
  });
  await emitEvents(
    tx,
    shopId,
    "commission.updated",
    moved.map((c) => ({
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
