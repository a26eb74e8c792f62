import { calculateCommissions, type CampaignTerms } from "../commissions/calculate-commission";
import { decideAttribution } from "../attribution/attribute-order.server";
import { enqueueJob, type Tx } from "../jobs/job-queue.server";
import { normalizeOrder, type OrderPayload } from "../shopify/order-payload";
import { campaignTerms, uplineChain } from "./commission-context.server";

export interface CommissionSnapshot {
  terms: CampaignTerms | null;
  chain: (string | null)[];
  isNewCustomer: boolean;
  collectionsByProduct: Record<string, string[]>;
  basis: number;
}

const DAY = 86_400_000;

/**
 * orders/create and orders/paid: stores the order once (keyed on its
 * admin_graphql_api_id), decides attribution, computes commissions and
 * schedules automatic approval. A second delivery of the same order changes
 * nothing.
 */
export async function recordOrder(tx: Tx, shop: { id: string; attributionModel: string }, payload: OrderPayload) {
  const order = normalizeOrder(payload);
  const existing = await tx.order.findUnique({ where: { shopId_shopifyGid: { shopId: shop.id, shopifyGid: order.gid } }, select: { id: true } });
  if (existing) return { orderId: existing.id, created: false };

  const customerKeys = [order.customerGid, order.email].filter((k): k is string => Boolean(k));
  // "New customer": the first order of this customer the app has seen.
  const sameCustomer = [
    ...(order.customerGid ? [{ customerGid: order.customerGid }] : []),
    ...(order.email ? [{ customerEmail: order.email }] : []),
  ];
  const earlier = sameCustomer.length ? await tx.order.count({ where: { shopId: shop.id, OR: sameCustomer } }) : 0;
  const isNewCustomer = sameCustomer.length > 0 && earlier === 0;

  const decision = await decideAttribution(tx, shop, order);
  let snapshot: CommissionSnapshot = { terms: null, chain: [], isNewCustomer, collectionsByProduct: {}, basis: 0 };
  let status = "pending";
  let approveAfter: Date | null = null;
  let lifetime = false;
  let commissions: { affiliateId: string; level: number; amount: number; explanation: string }[] = [];

  if (decision.affiliateId) {
    const affiliate = await tx.affiliate.findUniqueOrThrow({ where: { id: decision.affiliateId }, select: { campaignId: true } });
    const { autoApproveOrders, approvalHoldDays, lifetimeCustomerLink, ...terms } = await campaignTerms(tx, affiliate.campaignId);
    const depth = Math.max(1, ...terms.levels.map((l) => l.level));
    const chain = await uplineChain(tx, decision.affiliateId, depth);
    // Collection rules need the products' collections from Shopify's Admin
    // API; until that lookup exists, lines match product rules only.
    const collectionsByProduct: Record<string, string[]> = {};
    const outcome = calculateCommissions(terms, { currency: order.currency, lines: order.lines, isNewCustomer, collectionsByProduct, chain });
    snapshot = { terms, chain, isNewCustomer, collectionsByProduct, basis: outcome.basis };
    commissions = outcome.lines;
    lifetime = lifetimeCustomerLink;
    if (autoApproveOrders) {
      if (approvalHoldDays === 0) status = "approved";
      else approveAfter = new Date(order.placedAt.getTime() + approvalHoldDays * DAY);
    }
  }

  const created = await tx.order.create({
    data: {
      shopId: shop.id,
      shopifyGid: order.gid,
      name: order.name,
      customerEmail: order.email,
      customerGid: order.customerGid,
      currency: order.currency,
      subtotal: order.subtotal,
      total: order.total,
      status,
      affiliateId: decision.affiliateId,
      attributionSource: decision.source,
      attributionReason: decision.reason,
      clickId: decision.clickId,
      discountCodes: JSON.stringify(order.discountCodes),
      lines: JSON.stringify(order.lines),
      isNewCustomer,
      commissionTerms: JSON.stringify(snapshot),
      approveAfter,
      placedAt: order.placedAt,
      cancelledAt: order.cancelledAt,
    },
    select: { id: true },
  });
  if (commissions.length) {
    await tx.commission.createMany({
      data: commissions.map((c) => ({ ...c, shopId: shop.id, orderId: created.id, currency: order.currency, status, kind: "sale", sourceRef: "" })),
    });
  }
  if (decision.affiliateId && lifetime && decision.source !== "lifetime") {
    // The customer stays with this affiliate for later orders.
    for (const customerKey of customerKeys) {
      const link = await tx.customerLink.findUnique({ where: { shopId_customerKey: { shopId: shop.id, customerKey } }, select: { id: true } });
      if (!link) await tx.customerLink.create({ data: { shopId: shop.id, customerKey, affiliateId: decision.affiliateId } });
    }
  }
  if (approveAfter) {
    await enqueueJob(tx, "orders.approve", { orderId: created.id }, { runAt: approveAfter, uniqueKey: `approve:${created.id}` });
  }
  return { orderId: created.id, created: true };
}
