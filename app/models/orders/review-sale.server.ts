import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";

// A merchant's decision on a pending sale: approve it (its pending sale
// commissions become payable) or deny it (they are denied). Only pending
// sales can be decided; anything else is a conflict naming the current
// status. One transaction, and the status change is conditional on
// "still pending", so two concurrent decisions cannot both win.

export type SaleDecision = "approve" | "deny";

const RESULT = { approve: "approved", deny: "denied" } as const;

export async function reviewSale(shopId: string, orderId: string, decision: SaleDecision) {
  const status = RESULT[decision];
  return getDb().$transaction(async (tx) => {
    const order = await tx.order.findFirst({ where: { id: orderId, shopId }, select: { status: true } });
    if (!order) throw new AppError("not_found", "No sale with this id.");
    const refuse = (current: string) =>
      new AppError("conflict", `Only pending sales can be ${status}; this sale is ${current}.`);
    if (order.status !== "pending") throw refuse(order.status);
    // A decided sale no longer waits for automatic approval.
    const { count } = await tx.order.updateMany({
      where: { id: orderId, shopId, status: "pending" },
      data: { status, approveAfter: null },
    });
    if (count === 0) throw refuse("no longer pending");
    await tx.commission.updateMany({ where: { shopId, orderId, kind: "sale", status: "pending" }, data: { status } });
    return tx.order.findUniqueOrThrow({ where: { id: orderId }, include: { commissions: true } });
  });
}
