import type { ShopDb } from "../../db/shop-db.server";
import { settlePendingCommissions } from "./commission-events.server";
import { AppError } from "../../lib/errors";
import type { Tx } from "../../db/transaction";

// A merchant's decision on a pending sale: approve it (its pending
// commission lines become payable) or deny it (they are denied). The lines
// are the sale's own and the refund or cancellation adjustments made while it
// was pending, which share its status: approving only the sale lines would
// pay the amount from before the refund. Only pending
// sales can be decided; anything else is a conflict naming the current
// status (a paid sale never changes). The status change is conditional on
// "still pending", so two concurrent decisions cannot both win.

export type SaleDecision = "approve" | "deny";

const RESULT = { approve: "approved", deny: "denied" } as const;

/** Decides one order and its pending lines inside `tx`; false when it is no longer pending. */
async function decide(tx: Tx, shopId: string, orderId: string, decision: SaleDecision): Promise<boolean> {
  const status = RESULT[decision];
  // A decided sale no longer waits for automatic approval.
  // A leak flag's hold (ADR 051) stops an approval, not a denial.
  const { count } = await tx.order.updateMany({
    where: { id: orderId, shopId, status: "pending", ...(decision === "approve" ? { leakHoldId: null } : {}) },
    data: { status, approveAfter: null },
  });
  if (count === 0) return false;
  await settlePendingCommissions(tx, shopId, orderId, status);
  return true;
}

export async function reviewSale(db: ShopDb, orderId: string, decision: SaleDecision) {
  const shopId = db.$shopId;
  const status = RESULT[decision];
  return db.$transaction(async (tx) => {
    const order = await tx.order.findFirst({
      where: { id: orderId, shopId },
      select: { status: true, leakHoldId: true },
    });
    if (!order) throw new AppError("not_found", "No sale with this id.");
    const refuse = (current: string) =>
      new AppError("conflict", `Only pending sales can be ${status}; this sale is ${current}.`);
    if (order.status !== "pending") throw refuse(order.status);
    if (decision === "approve" && order.leakHoldId)
      throw new AppError("conflict", "This sale is held by a leak flag: release the flag or rotate the code first.");
    if (!(await decide(tx, shopId, orderId, decision))) throw refuse("no longer pending");
    return tx.order.findUniqueOrThrow({ where: { id: orderId }, include: { commissions: true } });
  });
}

export interface BulkReviewResult {
  decision: SaleDecision;
  changed: string[];
  // Sales of this shop that were not pending, with their status.
  skipped: { id: string; name: string; status: string }[];
  // Ids that are not this shop's sales (or do not exist).
  missing: string[];
}

/** Decides many sales in one transaction; what is not pending is reported, not changed. */
export async function reviewSales(db: ShopDb, orderIds: string[], decision: SaleDecision): Promise<BulkReviewResult> {
  const shopId = db.$shopId;
  const ids = [...new Set(orderIds)];
  return db.$transaction(async (tx) => {
    const orders = await tx.order.findMany({
      where: { shopId, id: { in: ids } },
      select: { id: true, name: true, status: true, leakHoldId: true },
    });
    const found = new Set(orders.map((o) => o.id));
    const result: BulkReviewResult = {
      decision,
      changed: [],
      skipped: [],
      missing: ids.filter((id) => !found.has(id)),
    };
    for (const order of orders) {
      if (order.status === "pending" && (await decide(tx, shopId, order.id, decision))) result.changed.push(order.id);
      else {
        const held = order.status === "pending" && decision === "approve" && order.leakHoldId;
        result.skipped.push({ id: order.id, name: order.name, status: held ? "held" : order.status });
      }
    }
    return result;
  });
}
