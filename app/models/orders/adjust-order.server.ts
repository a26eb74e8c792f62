import { z } from "zod";
import { randomUUID } from "node:crypto";
import { emitEvents, eventRows } from "../events/emit-event.server";
import type { EventData } from "../events/event-types";
import { ANY_SHOP, num, prismaBulk, type BulkSql, type RowOf } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import { settlePendingCommissions } from "./commission-events.server";
import { encodeExplanation } from "../commissions/commission-explanation";
import { calculateCommissions } from "../commissions/calculate-commission";
import type { Tx } from "../../db/transaction";
import { toMinorUnits } from "../shopify/money-string";
import type { OrderLine } from "../shopify/order-payload";
import type { CommissionSnapshot } from "./record-order.server";
import { commissionFromStates, voidsOnCancel } from "../commissions/commission-states";
import { lockPayouts } from "../payouts/payout-sql.server";
import { refreshPendingPayouts } from "../payouts/refresh-pending-payouts.server";

// Refunds and cancellations of orders the app already recorded.

const id = z.union([z.string(), z.number()]).transform(String);
export const refundPayloadSchema = z.object({
  id,
  order_id: id,
  admin_graphql_api_id: z.string().min(1),
  refund_line_items: z
    .array(
      z.object({
        line_item_id: id,
        quantity: z.number().int().nonnegative(),
        subtotal: z.union([z.string(), z.number()]).nullish(),
        subtotal_set: z.object({ shop_money: z.object({ amount: z.union([z.string(), z.number()]) }) }).nullish(),
      }),
    )
    .default([]),
});
export type RefundPayload = z.infer<typeof refundPayloadSchema>;

type CommissionRow = { id: string; affiliateId: string; level: number; amount: number; status: string; kind: string };

function keyOf(c: { affiliateId: string; level: number }) {
  return `${c.affiliateId}:${c.level}`;
}

/**
 * The lines that bring the commissions of an order in line with `target`
 * (what they should add up to now): one adjustment line per affiliate and
 * level, with its "commission.created" event. Unpaid money just shrinks (the
 * adjustment shares the sale line's status); money already paid out comes
 * back as an approved negative line, which the next payout deducts.
 */
function adjustmentLines(
  order: { id: string; shopId: string; currency: string },
  rows: CommissionRow[],
  target: Map<string, number>,
  kind: "refund" | "cancel",
  sourceRef: string,
  explain: (before: number, after: number) => string,
  now: Date,
) {
  const live = rows.filter((r) => r.status !== "void" && r.status !== "denied");
  const groups = new Map<string, CommissionRow[]>();
  for (const r of live) groups.set(keyOf(r), [...(groups.get(keyOf(r)) ?? []), r]);
  const lines: RowOf<"Commission">[] = [];
  const created: EventData<"commission.created">[] = [];
  for (const [key, group] of groups) {
    const net = group.reduce((s, r) => s + r.amount, 0);
    const goal = target.get(key) ?? 0;
    const delta = goal - net;
    if (delta === 0) continue;
    const sale = group.find((r) => r.kind === "sale") ?? group[0]!;
    const id = randomUUID();
    lines.push({
      id,
      shopId: order.shopId,
      orderId: order.id,
      affiliateId: sale.affiliateId,
      level: sale.level,
      kind,
      sourceRef,
      explanation: explain(net, goal),
      amount: delta,
      currency: order.currency,
      status: sale.status === "paid" ? "approved" : sale.status,
      payoutId: null,
      createdAt: now,
      updatedAt: now,
    });
    created.push({
      commissionId: id,
      affiliateId: sale.affiliateId,
      orderId: order.id,
      kind,
      amount: delta,
      currency: order.currency,
    });
  }
  return { lines, events: eventRows(order.shopId, "commission.created", created, now) };
}

async function writeAdjustments(bulk: BulkSql, adjustments: ReturnType<typeof adjustmentLines>) {
  await bulk.insertRows("Commission", adjustments.lines);
  await bulk.insertRows("DomainEvent", adjustments.events.events);
  await bulk.insertRows("Job", adjustments.events.jobs);
}

type OrderRow = {
  id: string;
  currency: string;
  lines: string;
  refundGids: string;
  refundedAmount: unknown;
  commissionTerms: string;
  affiliateId: string | null;
};
const ORDER_COLUMNS = [
  "id",
  "currency",
  "lines",
  "refundGids",
  "refundedAmount",
  "commissionTerms",
  "affiliateId",
] as const;
type CommissionRead = Omit<CommissionRow, "level" | "amount"> & { shopId: string; level: unknown; amount: unknown };
const COMMISSION_COLUMNS = ["id", "shopId", "affiliateId", "level", "amount", "status", "kind"] as const;

/**
 * Applies a refund with the worker's bulk statements, read and written in
 * the caller's transaction: on SQLite the worker's own connection under the
 * write lock (a few prepared statements, so the lock is held for about a
 * millisecond), on PostgreSQL with the order row locked, so two refunds of
 * one order apply one after the other. A refund already applied changes
 * nothing (its id is kept on the order, and its lines are unique per
 * affiliate, level and refund).
 */
export async function applyRefund(bulk: BulkSql, shopId: string, refund: RefundPayload, now = new Date()) {
  const orderGid = `gid://shopify/Order/${refund.order_id}`;
  const [order] = await bulk
    .from("Order")
    .findIn<OrderRow>(ORDER_COLUMNS, { shopId }, "shopifyGid", [orderGid], { forUpdate: true });
  if (!order) return { applied: false, reason: "unknown order" };
  const applied: string[] = JSON.parse(order.refundGids);
  if (applied.includes(refund.admin_graphql_api_id)) return { applied: false, reason: "already applied" };

  const lines: OrderLine[] = JSON.parse(order.lines);
  let refundedAmount = 0;
  for (const item of refund.refund_line_items) {
    const line = lines.find((l) => l.id === item.line_item_id);
    if (line) line.refundedQuantity = Math.min(line.quantity, line.refundedQuantity + item.quantity);
    refundedAmount += toMinorUnits(item.subtotal_set?.shop_money.amount ?? item.subtotal ?? 0, order.currency);
  }
  await bulk.updateIn(
    "Order",
    {
      lines: JSON.stringify(lines),
      refundGids: JSON.stringify([...applied, refund.admin_graphql_api_id]),
      refundedAmount: num(order.refundedAmount) + refundedAmount,
      updatedAt: now,
    },
    { shopId },
    "id",
    [order.id],
  );

  const snapshot: CommissionSnapshot = JSON.parse(order.commissionTerms);
  if (!snapshot.terms || !order.affiliateId) return { applied: true, reason: "no commissions" };
  // What the commissions are on the part of the order that is kept.
  const remaining = lines.map((l) => {
    const kept = l.quantity - l.refundedQuantity;
    return { ...l, quantity: kept, amount: l.quantity > 0 ? Math.round((l.amount * kept) / l.quantity) : 0 };
  });
  const outcome = calculateCommissions(snapshot.terms, {
    currency: order.currency,
    lines: remaining,
    isNewCustomer: snapshot.isNewCustomer,
    collectionsByProduct: snapshot.collectionsByProduct,
    originalBasis: snapshot.basis,
    chain: snapshot.chain,
  });
  const target = new Map(outcome.lines.map((l) => [keyOf(l), l.amount]));
  // By the order alone: with the shop's id beside it SQLite's planner took
  // the shop's index of unpaid lines and read every line of the shop. The
  // order was read within the shop, and its lines are the shop's (checked).
  const rows = (
    await bulk
      .from("Commission")
      .findIn<CommissionRead>(COMMISSION_COLUMNS, { shopId: ANY_SHOP }, "orderId", [order.id])
  )
    .filter((r) => r.shopId === shopId)
    .map((r) => ({ ...r, level: num(r.level), amount: num(r.amount) }));
  await writeAdjustments(
    bulk,
    adjustmentLines(
      { id: order.id, shopId, currency: order.currency },
      rows,
      target,
      "refund",
      refund.admin_graphql_api_id,
      (before, after) => encodeExplanation({ kind: "refund", refunded: refundedAmount, before, after }),
      now,
    ),
  );
  return { applied: true, reason: "adjusted" };
}

export async function cancelOrder(tx: Tx, shopId: string, orderGid: string, cancelledAt: Date) {
  const order = await tx.order.findUnique({ where: { shopId_shopifyGid: { shopId, shopifyGid: orderGid } } });
  if (!order) return { applied: false, reason: "unknown order" };
  if (order.cancelledAt && order.status === "void") return { applied: false, reason: "already cancelled" };
  // The order first, guarded: of two deliveries of the cancellation, one does the rest.
  const claimed = await tx.order.updateMany({
    where: { id: order.id, OR: [{ cancelledAt: null }, { status: { not: "void" } }] },
    data: { status: "void", cancelledAt, approveAfter: null },
  });
  if (claimed.count !== 1) return { applied: false, reason: "already cancelled" };
  // The payouts that hold the order's lines or could take them are locked
  // first (those holding them, and the pending payouts of the lines'
  // affiliates, which take loose lines as they leave pending: ADR 058): a
  // batch taking one of them waits, or is waited for, and the lines are then
  // read with their payouts as they are.
  const before = await tx.commission.findMany({
    where: { orderId: order.id },
    select: { payoutId: true, affiliateId: true },
  });
  const affiliateIds = [...new Set(before.map((h) => h.affiliateId))];
  const pendingOfAffiliates = affiliateIds.length
    ? await tx.payout.findMany({
        where: { shopId, status: "pending", affiliateId: { in: affiliateIds } },
        select: { id: true },
      })
    : [];
  const payoutIds = [
    ...new Set([...before.flatMap((h) => (h.payoutId ? [h.payoutId] : [])), ...pendingOfAffiliates.map((p) => p.id)]),
  ];
  await lockPayouts(tx, { shopId, ids: payoutIds });
  const rows = await tx.commission.findMany({
    where: { orderId: order.id },
    include: { payout: { select: { status: true } } },
  });
  // Money that has not left is voided (and leaves the balance a pending
  // payout shows); money sent or paid is clawed back by a negative line the
  // next payout deducts.
  const voidable = rows.filter((r) => voidsOnCancel({ status: r.status, payoutStatus: r.payout?.status ?? null }));
  const voided = voidable.length
    ? await tx.commission.updateManyAndReturn({
        where: { id: { in: voidable.map((r) => r.id) }, status: { in: commissionFromStates("void") } },
        data: { status: "void", payoutId: null },
        select: { id: true, affiliateId: true, kind: true, amount: true, currency: true },
      })
    : [];
  await emitEvents(
    tx,
    shopId,
    "commission.updated",
    voided.map((r) => ({
      commissionId: r.id,
      affiliateId: r.affiliateId,
      orderId: order.id,
      kind: r.kind,
      status: "void",
      amount: r.amount,
      currency: r.currency,
    })),
  );
  const sent = rows.filter((r) => r.status === "paid" || (r.status === "approved" && !voidable.includes(r)));
  await writeAdjustments(
    prismaBulk(tx, dialectOf(tx)),
    adjustmentLines(
      order,
      sent.map((r) => ({ ...r, status: r.status === "approved" ? "paid" : r.status })),
      new Map(),
      "cancel",
      "cancel",
      (before) => encodeExplanation({ kind: "cancelled", amount: before }),
      new Date(),
    ),
  );
  // A pending payout whose balance lost lines shows what is left (or is cancelled below the minimum).
  const fromBalance = voidable.filter((r) => r.status === "approved").map((r) => r.affiliateId);
  if (fromBalance.length) await refreshPendingPayouts(tx, shopId, { affiliateIds: [...new Set(fromBalance)] });
  return { applied: true, reason: "cancelled" };
}

/** The scheduled end of a campaign's hold: a still-pending order is approved. */
export async function approveIfStillPending(tx: Tx, orderId: string, now = new Date()) {
  const order = await tx.order.findUnique({ where: { id: orderId } });
  if (!order || order.status !== "pending" || order.cancelledAt) return false;
  if (order.approveAfter && order.approveAfter.getTime() > now.getTime()) return false;
  // A leak flag holds it (ADR 051): releasing the flag queues the approval again.
  if (order.leakHoldId) return false;
  // Guarded: a merchant's decision, a cancellation or a leak hold that got there first wins.
  const moved = await tx.order.updateMany({
    where: { id: orderId, status: "pending", cancelledAt: null, leakHoldId: null },
    data: { status: "approved" },
  });
  if (moved.count !== 1) return false;
  await settlePendingCommissions(tx, order.shopId, orderId, "approved");
  return true;
}
