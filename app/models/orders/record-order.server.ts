import { randomUUID } from "node:crypto";
import { attributeOrder, type AffiliateFacts, type LinkSignal } from "../attribution/attribute-order";
import { calculateCommissions, type CampaignTerms } from "../commissions/calculate-commission";
import type { Tx } from "../jobs/job-queue.server";
import { normalizeOrder, type NormalizedOrder, type OrderPayload } from "../shopify/order-payload";

export interface CommissionSnapshot {
  terms: CampaignTerms | null;
  chain: (string | null)[];
  isNewCustomer: boolean;
  collectionsByProduct: Record<string, string[]>;
  basis: number;
}

const DAY = 86_400_000;

type AffiliateRow = {
  id: string;
  firstName: string;
  lastName: string;
  referralCode: string;
  email: string;
  customerGid: string | null;
  status: string;
  campaignId: string;
  parentId: string | null;
};

type CampaignRow = CampaignTerms & { autoApproveOrders: boolean; approvalHoldDays: number; lifetimeCustomerLink: boolean; cookieDays: number };

const unique = <T,>(values: (T | null | undefined)[]) => [...new Set(values.filter((v): v is T => v !== null && v !== undefined && v !== ""))];

/**
 * orders/create and orders/paid, for one order or a batch of them: stores
 * each order once (keyed on its admin_graphql_api_id), decides attribution,
 * computes commissions and schedules automatic approval. A second delivery of
 * an order changes nothing. The signals of the whole batch are loaded with a
 * few queries and the rows are written in bulk, which is what lets the
 * worker keep up with a busy store.
 */
export async function recordOrders(tx: Tx, shop: { id: string; attributionModel: string }, payloads: OrderPayload[]) {
  const byGid = new Map<string, NormalizedOrder>();
  for (const p of payloads) {
    const o = normalizeOrder(p);
    if (!byGid.has(o.gid)) byGid.set(o.gid, o);
  }
  const existing = await tx.order.findMany({ where: { shopId: shop.id, shopifyGid: { in: [...byGid.keys()] } }, select: { shopifyGid: true } });
  for (const e of existing) byGid.delete(e.shopifyGid);
  const orders = [...byGid.values()];
  if (orders.length === 0) return [];

  // Every signal of the batch, a query each.
  const codes = unique(orders.flatMap((o) => o.discountCodes));
  const coupons = codes.length ? await tx.coupon.findMany({ where: { shopId: shop.id, code: { in: codes } }, select: { code: true, affiliateId: true } }) : [];
  const tokens = unique(orders.map((o) => o.checkoutToken));
  const pixels = tokens.length
    ? await tx.pixelEvent.findMany({ where: { shopId: shop.id, checkoutToken: { in: tokens } }, select: { checkoutToken: true, clickId: true, referralCode: true } })
    : [];
  const clickIds = unique([...orders.map((o) => o.attributes._affiliate_click?.slice(0, 64)), ...pixels.map((p) => p.clickId)]);
  const clicks = clickIds.length
    ? await tx.click.findMany({ where: { shopId: shop.id, clickId: { in: clickIds } }, select: { clickId: true, createdAt: true, affiliateId: true } })
    : [];
  const refCodes = unique([...orders.map((o) => o.attributes._affiliate_ref?.trim().toUpperCase().slice(0, 64)), ...pixels.map((p) => p.referralCode?.toUpperCase())]);
  const customerGids = unique(orders.map((o) => o.customerGid));
  const emails = unique(orders.map((o) => o.email));
  const keys = [...customerGids, ...emails];
  const links = keys.length ? await tx.customerLink.findMany({ where: { shopId: shop.id, customerKey: { in: keys } }, select: { customerKey: true, affiliateId: true } }) : [];
  const earlier = keys.length
    ? await tx.order.findMany({
        where: { shopId: shop.id, OR: [{ customerGid: { in: customerGids } }, { customerEmail: { in: emails } }] },
        select: { customerGid: true, customerEmail: true },
      })
    : [];

  const affiliateIds = unique([...coupons.map((c) => c.affiliateId), ...clicks.map((c) => c.affiliateId), ...links.map((l) => l.affiliateId)]);
  const select = { id: true, firstName: true, lastName: true, referralCode: true, email: true, customerGid: true, status: true, campaignId: true, parentId: true };
  const affiliateRows: AffiliateRow[] =
    affiliateIds.length || refCodes.length
      ? await tx.affiliate.findMany({ where: { shopId: shop.id, OR: [{ id: { in: affiliateIds } }, { referralCode: { in: refCodes } }] }, select })
      : [];
  const affiliates = new Map(affiliateRows.map((a) => [a.id, a]));
  const byCode = new Map(affiliateRows.map((a) => [a.referralCode, a]));
  const campaigns = await loadCampaigns(tx, unique(affiliateRows.map((a) => a.campaignId)));

  // Uplines, one query per level for the whole batch.
  const depth = Math.max(1, ...[...campaigns.values()].flatMap((c) => c.levels.map((l) => l.level)));
  let frontier = unique(affiliateRows.map((a) => a.parentId)).filter((id) => !affiliates.has(id));
  for (let level = 2; level <= depth && frontier.length; level++) {
    const parents = await tx.affiliate.findMany({ where: { id: { in: frontier } }, select });
    for (const p of parents) affiliates.set(p.id, p);
    frontier = unique(parents.map((p) => p.parentId)).filter((id) => !affiliates.has(id));
  }

  const facts = (a: AffiliateRow): AffiliateFacts => ({
    id: a.id,
    name: `${a.firstName} ${a.lastName}`.trim(),
    code: a.referralCode,
    email: a.email,
    customerGid: a.customerGid,
    status: a.status,
    cookieDays: campaigns.get(a.campaignId)?.cookieDays ?? 30,
  });
  const couponByCode = new Map(coupons.map((c) => [c.code, c.affiliateId]));
  const clickById = new Map(clicks.map((c) => [c.clickId, c]));
  const pixelByToken = new Map(pixels.map((p) => [p.checkoutToken, p]));
  const linkByKey = new Map(links.map((l) => [l.customerKey, l.affiliateId]));
  const seenCustomers = new Set(earlier.flatMap((e) => [e.customerGid, e.customerEmail]).filter(Boolean));

  const signal = (clickId: string | null | undefined, code: string | null | undefined, at: Date): LinkSignal | null => {
    const click = clickId ? clickById.get(clickId.slice(0, 64)) : undefined;
    const viaClick = click ? affiliates.get(click.affiliateId) : undefined;
    if (click && viaClick) return { affiliate: facts(viaClick), clickId: click.clickId, at: click.createdAt };
    const viaCode = code ? byCode.get(code.trim().toUpperCase()) : undefined;
    return viaCode ? { affiliate: facts(viaCode), clickId: null, at } : null;
  };

  const orderRows = [];
  const commissionRows = [];
  const newLinks: { shopId: string; customerKey: string; affiliateId: string }[] = [];
  const approvals = [];
  const results: { orderId: string; created: boolean }[] = [];
  for (const order of orders) {
    const customerKeys = [order.customerGid, order.email].filter((k): k is string => Boolean(k));
    const isNewCustomer = customerKeys.length > 0 && !customerKeys.some((k) => seenCustomers.has(k));
    customerKeys.forEach((k) => seenCustomers.add(k));

    const coupon = order.discountCodes.map((c) => ({ code: c, affiliateId: couponByCode.get(c) })).find((c) => c.affiliateId);
    const couponAffiliate = coupon?.affiliateId ? affiliates.get(coupon.affiliateId) : undefined;
    const byClick = signal(order.attributes._affiliate_click, null, order.placedAt);
    const byRef = signal(null, order.attributes._affiliate_ref, order.placedAt);
    const pixelEvent = order.checkoutToken ? pixelByToken.get(order.checkoutToken) : undefined;
    const lifetimeId = customerKeys.map((k) => linkByKey.get(k)).find(Boolean);
    const lifetime = lifetimeId ? affiliates.get(lifetimeId) : undefined;
    const decision = attributeOrder({
      placedAt: order.placedAt,
      buyerEmail: order.email,
      buyerCustomerGid: order.customerGid,
      attributionModel: shop.attributionModel === "first_click" ? "first_click" : "last_click",
      coupon: coupon && couponAffiliate ? { code: coupon.code, affiliate: facts(couponAffiliate) } : null,
      links: [byClick, byRef && byRef.affiliate.id !== byClick?.affiliate.id ? byRef : null].filter((l): l is LinkSignal => l !== null),
      pixel: pixelEvent ? signal(pixelEvent.clickId, pixelEvent.referralCode, order.placedAt) : null,
      lifetime: lifetime ? facts(lifetime) : null,
    });

    const id = randomUUID();
    let snapshot: CommissionSnapshot = { terms: null, chain: [], isNewCustomer, collectionsByProduct: {}, basis: 0 };
    let status = "pending";
    let approveAfter: Date | null = null;
    const credited = decision.affiliateId ? affiliates.get(decision.affiliateId) : undefined;
    const campaign = credited ? campaigns.get(credited.campaignId) : undefined;
    if (credited && campaign) {
      const { autoApproveOrders, approvalHoldDays, lifetimeCustomerLink, cookieDays: _cookieDays, ...terms } = campaign;
      const chain = uplineChain(affiliates, credited.id, Math.max(1, ...terms.levels.map((l) => l.level)));
      // Collection rules need the products' collections from Shopify's
      // Admin API; until that lookup exists, lines match product rules only.
      const collectionsByProduct: Record<string, string[]> = {};
      const outcome = calculateCommissions(terms, { currency: order.currency, lines: order.lines, isNewCustomer, collectionsByProduct, chain });
      snapshot = { terms, chain, isNewCustomer, collectionsByProduct, basis: outcome.basis };
      if (autoApproveOrders) {
        if (approvalHoldDays === 0) status = "approved";
        else approveAfter = new Date(order.placedAt.getTime() + approvalHoldDays * DAY);
      }
      for (const c of outcome.lines) {
        commissionRows.push({ ...c, shopId: shop.id, orderId: id, currency: order.currency, status, kind: "sale", sourceRef: "" });
      }
      if (lifetimeCustomerLink && decision.source !== "lifetime") {
        for (const customerKey of customerKeys) {
          if (linkByKey.has(customerKey)) continue;
          linkByKey.set(customerKey, credited.id);
          newLinks.push({ shopId: shop.id, customerKey, affiliateId: credited.id });
        }
      }
      if (approveAfter) {
        approvals.push({ type: "orders.approve", payload: JSON.stringify({ orderId: id }), runAt: approveAfter, uniqueKey: `approve:${id}` });
      }
    }
    orderRows.push({
      id,
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
    });
    results.push({ orderId: id, created: true });
  }

  // In chunks: a statement may bind only so many parameters (SQLite's limit
  // is the lowest), and a batch of orders with deep MLM chains adds up.
  for (const part of chunks(orderRows, 200)) await tx.order.createMany({ data: part });
  for (const part of chunks(commissionRows, 400)) await tx.commission.createMany({ data: part });
  for (const part of chunks(newLinks, 400)) await tx.customerLink.createMany({ data: part });
  for (const part of chunks(approvals, 400)) await tx.job.createMany({ data: part });
  return results;
}

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function recordOrder(tx: Tx, shop: { id: string; attributionModel: string }, payload: OrderPayload) {
  const [result] = await recordOrders(tx, shop, [payload]);
  return result ?? { orderId: null, created: false };
}

async function loadCampaigns(tx: Tx, ids: string[]): Promise<Map<string, CampaignRow>> {
  if (!ids.length) return new Map();
  const rows = await tx.campaign.findMany({ where: { id: { in: ids } }, include: { levels: true, rules: true } });
  return new Map(
    rows.map((c) => [
      c.id,
      {
        commissionType: c.commissionType as CampaignTerms["commissionType"],
        commissionValue: c.commissionValue,
        newCustomerValue: c.newCustomerValue,
        rules: c.rules.map((r) => ({
          targetType: r.targetType as "product" | "collection",
          targetGid: r.targetGid,
          kind: r.kind as "rate" | "exclude",
          commissionType: r.commissionType as "percent" | "flat_item",
          value: r.value,
        })),
        levels: c.levels.map((l) => ({ level: l.level, basis: l.basis as "percent_of_sale" | "percent_of_commission", rate: l.rate })),
        autoApproveOrders: c.autoApproveOrders,
        approvalHoldDays: c.approvalHoldDays,
        lifetimeCustomerLink: c.lifetimeCustomerLink,
        cookieDays: c.cookieDays,
      },
    ]),
  );
}

/**
 * [level 1 affiliate, level 2 upline, ...] up to `depth`, with null where an
 * upline is not approved. A cycle in the data (which the app refuses to
 * create) stops the walk instead of looping.
 */
function uplineChain(affiliates: Map<string, AffiliateRow>, affiliateId: string, depth: number): (string | null)[] {
  const chain: (string | null)[] = [affiliateId];
  const seen = new Set([affiliateId]);
  let current = affiliates.get(affiliateId);
  while (chain.length < depth && current?.parentId && !seen.has(current.parentId)) {
    const parent = affiliates.get(current.parentId);
    if (!parent) break;
    seen.add(parent.id);
    chain.push(parent.status === "approved" ? parent.id : null);
    current = parent;
  }
  return chain;
}
