import type { Tx } from "../../db/transaction";
import { AppError } from "../../lib/errors";
import { ATTRIBUTION_REASON_KEYS, storedAttributionReason } from "../attribution/attribution-reason";
import { calculateCommissions, type CampaignTerms } from "../commissions/calculate-commission";
import { emitEvent } from "../events/emit-event.server";
import { enqueueJob } from "../jobs/enqueue.server";
import type { CommissionSnapshot } from "../orders/record-order.server";
import { uplineChain } from "../orders/record-order.server";
import { planAllows } from "../plans/plans";

// Credits an order nobody was credited with to an affiliate whose claim the
// merchant approved: the commission lines come from the same calculator,
// campaign terms, upline chain and approval hold as an order attributed when
// it arrived (record-order.server.ts), and the order keeps the snapshot
// refunds recompute from. The reason is stored as a key with values
// ("claimed, approved by <staff>", ADR 043). The order changes only if it is
// still credited to nobody (compare-and-set); refunded and cancelled orders
// are refused, since their adjustments were never computed for anyone.

const DAY = 86_400_000;

interface Affiliate {
  id: string;
  firstName: string;
  lastName: string;
  referralCode: string;
  status: string;
  campaignId: string;
}

type OrderLine = { id: string; productGid: string | null; quantity: number; amount: number };

export async function creditClaimedOrder(
  tx: Tx,
  shopId: string,
  orderId: string,
  affiliate: Affiliate,
  staffName: string,
  now = new Date(),
) {
  const order = await tx.order.findFirst({ where: { id: orderId, shopId } });
  if (!order) throw new AppError("not_found", "The claimed order no longer exists.");
  if (order.affiliateId) throw new AppError("conflict", "The order is already credited to an affiliate.");
  if (order.cancelledAt || order.status === "void" || order.status === "denied")
    throw new AppError("conflict", "The order was cancelled or denied: it cannot be credited.");
  if (order.refundedAmount > 0) throw new AppError("conflict", "The order was refunded: it cannot be credited.");
  if (affiliate.status !== "approved") throw new AppError("conflict", "The affiliate is not approved.");

  const [shop, campaign] = await Promise.all([
    tx.shop.findUniqueOrThrow({ where: { id: shopId }, select: { pricingPlan: true } }),
    tx.campaign.findFirst({ where: { id: affiliate.campaignId, shopId }, include: { rules: true, levels: true } }),
  ]);
  if (!campaign) throw new AppError("conflict", "The affiliate has no campaign.");
  const terms: CampaignTerms = {
    commissionType: campaign.commissionType as CampaignTerms["commissionType"],
    commissionValue: campaign.commissionValue,
    newCustomerValue: campaign.newCustomerValue,
    rules: campaign.rules.map((r) => ({
      targetType: r.targetType as "product" | "collection",
      targetGid: r.targetGid,
      kind: r.kind as "rate" | "exclude",
      commissionType: r.commissionType as "percent" | "flat_item",
      value: r.value,
    })),
    // MLM is a plan feature (as when orders arrive).
    levels: planAllows(shop.pricingPlan, "mlm")
      ? [...campaign.levels]
          .sort((a, b) => a.level - b.level)
          .map((l) => ({
            level: l.level,
            basis: l.basis as "percent_of_sale" | "percent_of_commission",
            rate: l.rate,
          }))
      : [],
  };

  // The upline, one row at a time (a claim is one order, not a batch).
  const depth = Math.max(1, ...terms.levels.map((l) => l.level));
  const people = new Map<string, { id: string; parentId: string | null; status: string }>();
  let next: string | null = affiliate.id;
  for (let level = 1; level <= depth && next && !people.has(next); level++) {
    const row: { id: string; parentId: string | null; status: string } | null = await tx.affiliate.findFirst({
      where: { id: next, shopId },
      select: { id: true, parentId: true, status: true },
    });
    if (!row) break;
    people.set(row.id, row);
    next = row.parentId;
  }
  const chain = uplineChain(people, affiliate.id, depth);

  const lines = parseLines(order.lines);
  const gids = [...new Set(lines.map((l) => l.productGid).filter((g): g is string => Boolean(g)))];
  const known = gids.length
    ? await tx.productCollections.findMany({
        where: { shopId, productGid: { in: gids } },
        select: { productGid: true, collectionGids: true },
      })
    : [];
  const collectionsByProduct: Record<string, string[]> = {};
  for (const k of known) collectionsByProduct[k.productGid] = parseList(k.collectionGids);
  const outcome = calculateCommissions(terms, {
    currency: order.currency,
    lines,
    isNewCustomer: order.isNewCustomer,
    collectionsByProduct,
    chain,
  });
  const snapshot: CommissionSnapshot = {
    terms,
    chain,
    isNewCustomer: order.isNewCustomer,
    collectionsByProduct,
    basis: outcome.basis,
  };

  let status = "pending";
  let approveAfter: Date | null = null;
  if (campaign.autoApproveOrders) {
    if (campaign.approvalHoldDays === 0) status = "approved";
    else approveAfter = new Date(order.placedAt.getTime() + campaign.approvalHoldDays * DAY);
  }
  const who = `${`${affiliate.firstName} ${affiliate.lastName}`.trim()} (${affiliate.referralCode})`;
  const { count } = await tx.order.updateMany({
    where: { id: order.id, shopId, affiliateId: null },
    data: {
      affiliateId: affiliate.id,
      attributionSource: "claim",
      ...storedAttributionReason({
        key: ATTRIBUTION_REASON_KEYS.claimed,
        values: { who, code: affiliate.referralCode, staff: staffName },
      }),
      commissionTerms: JSON.stringify(snapshot),
      status,
      approveAfter,
    },
  });
  if (count === 0) throw new AppError("conflict", "The order is already credited to an affiliate.");

  for (const line of outcome.lines) {
    const row = await tx.commission.create({
      data: {
        shopId,
        orderId: order.id,
        affiliateId: line.affiliateId,
        level: line.level,
        kind: "sale",
        sourceRef: "",
        explanation: line.explanation,
        amount: line.amount,
        currency: order.currency,
        status,
      },
      select: { id: true },
    });
    await emitEvent(tx, shopId, "commission.created", {
      commissionId: row.id,
      affiliateId: line.affiliateId,
      orderId: order.id,
      kind: "sale",
      amount: line.amount,
      currency: order.currency,
    });
  }
  await emitEvent(tx, shopId, "sale.credited", { orderId: order.id, affiliateId: affiliate.id });
  if (approveAfter)
    await enqueueJob(
      tx,
      "orders.approve",
      { orderId: order.id },
      { uniqueKey: `approve:${order.id}`, runAt: approveAfter },
    );
  return { orderId: order.id, status, commissions: outcome.lines.length, now };
}

function parseLines(json: string): OrderLine[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as OrderLine[]) : [];
  } catch {
    return [];
  }
}

function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
