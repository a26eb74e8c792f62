import type { Tx } from "../../db/transaction";
import { AppError } from "../../lib/errors";
import { flowDecimal } from "./flow-triggers";
import { orderLookup } from "./flow-actions";
import { addCommissionAdjustment } from "../orders/manual-adjustment.server";
import { findAffiliate } from "./find-affiliate.server";

// The Flow action adjust-commission: finds the order and the affiliate the
// merchant's workflow names (in the request's shop only) and adds the
// adjustment line (orders/manual-adjustment.server.ts). Its source is the
// Flow run, so the line itself is unique per run as well as the run's record.

export async function adjustCommission(
  tx: Tx,
  shopId: string,
  input: { order: string; amount: number | string; note: string; affiliate?: string; runId: string },
) {
  let order: { id: string } | null = null;
  for (const where of orderLookup(input.order)) {
    order = await tx.order.findFirst({ where: { ...where, shopId }, select: { id: true } });
    if (order) break;
  }
  if (!order) throw new AppError("not_found", `No order ${input.order} in this shop.`);
  const affiliate = input.affiliate ? await findAffiliate(tx, shopId, input.affiliate) : null;
  const line = await addCommissionAdjustment(tx, shopId, {
    orderId: order.id,
    affiliateId: affiliate?.id ?? null,
    amount: input.amount,
    note: input.note,
    sourceRef: `flow:${input.runId}`,
  });
  return {
    commission_id: line.id,
    order_id: line.orderId,
    affiliate_id: line.affiliateId,
    amount: flowDecimal(line.amount, line.currency),
    currency: line.currency,
    status: line.status,
    commission_before: flowDecimal(line.before, line.currency),
    commission_after: flowDecimal(line.after, line.currency),
  };
}
