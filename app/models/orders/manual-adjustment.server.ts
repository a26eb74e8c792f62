import type { Tx } from "../../db/transaction";
import { AppError } from "../../lib/errors";
import { formatMoney } from "../../lib/money";
import { adjustmentMinorUnits, adjustmentRule } from "../commissions/adjustment";
import { encodeExplanation } from "../commissions/commission-explanation";
import { emitEvent } from "../events/emit-event.server";

// A merchant's adjustment of an affiliate's commission on an order (ADR 057):
// one new line of kind "adjustment" beside the sale's, like a refund's line
// (adjust-order.server.ts). Lines that exist are never changed, paid ones
// included: money already paid is corrected by the next payout, which pays
// or deducts the new approved line. The order row is written first, guarded
// on "not cancelled": that is the compare-and-set against a cancellation,
// and it makes two adjustments of one order wait for each other, so the
// second reads the first's line before it checks the total.

export interface AdjustmentInput {
  orderId: string;
  /** Null: the affiliate the order is credited to. */
  affiliateId: string | null;
  amount: number | string;
  note: string;
  /** Unique per order, affiliate and level with the line's other sources: the Flow run's id. */
  sourceRef: string;
}

export async function addCommissionAdjustment(tx: Tx, shopId: string, input: AdjustmentInput) {
  const order = await tx.order.findFirst({
    where: { id: input.orderId, shopId },
    select: { id: true, name: true, currency: true, affiliateId: true },
  });
  if (!order) throw new AppError("not_found", "No order with this id.");
  const amount = adjustmentMinorUnits(input.amount, order.currency);
  if (!amount.ok) throw new AppError("validation_failed", amount.problem);
  const affiliateId = input.affiliateId ?? order.affiliateId;
  if (!affiliateId) throw new AppError("conflict", `Order ${order.name} is credited to no affiliate.`);

  const open = await tx.order.updateMany({
    where: { id: order.id, shopId, cancelledAt: null, status: { not: "void" } },
    data: { updatedAt: new Date() },
  });
  if (open.count === 0)
    throw new AppError("conflict", `Order ${order.name} was cancelled; its commissions cannot be adjusted.`);

  const lines = await tx.commission.findMany({
    where: { shopId, orderId: order.id, affiliateId },
    orderBy: [{ level: "asc" }, { createdAt: "asc" }],
    select: { level: true, kind: true, amount: true, status: true },
  });
  // The affiliate's own level on the order: the referrer's (1), or an upline's.
  const level = lines[0]?.level;
  const base = lines.find((l) => l.level === level && l.kind === "sale");
  if (level === undefined || !base)
    throw new AppError("conflict", `The affiliate earned no commission on order ${order.name}.`);
  const mine = lines.filter((l) => l.level === level);
  const rule = adjustmentRule(base, mine, amount.minor);
  if (!rule.ok) {
    const money = (minor: number) => formatMoney(minor, { currency: order.currency });
    const total = mine.filter((l) => l.status !== "denied" && l.status !== "void").reduce((s, l) => s + l.amount, 0);
    throw new AppError(
      "conflict",
      rule.problem === "negative"
        ? `The commission on order ${order.name} is ${money(total)}; taking off ${money(-amount.minor)} would make it negative.`
        : `The affiliate's commission on order ${order.name} is ${rule.problem}; it cannot be adjusted.`,
    );
  }
  const line = await tx.commission.create({
    data: {
      shopId,
      orderId: order.id,
      affiliateId,
      level,
      kind: "adjustment",
      sourceRef: input.sourceRef,
      amount: amount.minor,
      currency: order.currency,
      status: rule.status,
      explanation: encodeExplanation({
        kind: "adjustment",
        amount: amount.minor,
        before: rule.before,
        after: rule.after,
        note: input.note,
      }),
    },
    select: { id: true, amount: true, currency: true, status: true },
  });
  await emitEvent(tx, shopId, "commission.created", {
    commissionId: line.id,
    affiliateId,
    orderId: order.id,
    kind: "adjustment",
    amount: line.amount,
    currency: line.currency,
  });
  return { ...line, orderId: order.id, affiliateId, before: rule.before, after: rule.after };
}
