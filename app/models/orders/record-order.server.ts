import { randomUUID } from "node:crypto";
import { dispatchJobRows, domainEventRows } from "../events/emit-event.server";
import { bool, type BulkSql, type SqlValue } from "../../db/bulk-sql.server";
import { jobRow } from "../jobs/enqueue.server";
import { attributeOrder, type AffiliateFacts, type LinkSignal } from "../attribution/attribute-order";
import { calculateCommissions, type CampaignTerms } from "../commissions/calculate-commission";
import { withCollectionsUnread } from "../commissions/commission-explanation";
import { lookupProductCollections, type CollectionFetcher } from "../shopify/product-collections.server";
import { normalizeOrder, type NormalizedOrder, type OrderPayload } from "../shopify/order-payload";
import { planAllows } from "../plans/plans";
import { ATTRIBUTION_REASON_KEYS, storedAttributionReason } from "../attribution/attribution-reason";
import type { AttributionDecision } from "../attribution/attribute-order";
import { reconcileSignals, type SignalAffiliate } from "../attribution/reconcile-signals";
import { matchContract, renewalPolicyOf, renewalVerdict, type RenewalPolicy } from "../subscriptions/renewal-policy";
import { impliedContractKey, impliedOrigin } from "../subscriptions/implied-contract";

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

type CampaignRow = CampaignTerms & {
  autoApproveOrders: boolean;
  approvalHoldDays: number;
  lifetimeCustomerLink: boolean;
  cookieDays: number;
  renewal: RenewalPolicy;
};

const unique = <T>(values: (T | null | undefined)[]) => [
  ...new Set(values.filter((v): v is T => v !== null && v !== undefined && v !== "")),
];

/**
 * orders/create and orders/paid, for one order or a batch of them: stores
 * each order once (keyed on its admin_graphql_api_id), decides attribution,
 * computes commissions and schedules automatic approval. A second delivery of
 * an order changes nothing. The signals of the whole batch are loaded with a
 * few queries and the rows are written in bulk, which is what lets the
 * worker keep up with a busy store.
 */
type Row = Record<string, SqlValue>;

/** What recording a batch of orders will write, order by order. */
export interface OrderPlan {
  shopId: string;
  /** The shop and payloads the plan was made from: a renewal whose number another batch took is planned again. */
  shop: ShopFacts;
  collectionFetcher?: CollectionFetcher;
  orders: {
    gid: string;
    payload: OrderPayload;
    order: Row;
    commissions: Row[];
    links: Row[];
    approvals: Row[];
    /** A leaks.check job for a code-only order (leak watch, ADR 051): one per affiliate and batch. */
    leakCheck?: { affiliateId: string; job: Row };
    /** The checkout token of an order planned with no pixel report: writeOrders looks once more (ADR 056). */
    noPixelToken?: string;
  }[];
  // Product collections read from the Admin API for this batch.
  collections: Row[];
}

type ShopFacts = {
  id: string;
  domain: string;
  attributionModel: string;
  pricingPlan: string | null;
  /** Shop.autoApplyDiscount (a bulk read gives SQLite's 0/1); absent is off. */
  autoApplyDiscount?: boolean | number | null;
};

/** Records new orders (see planOrders and writeOrders); returns how many were new. */
export async function recordOrders(
  bulk: BulkSql,
  shop: ShopFacts,
  payloads: OrderPayload[],
  collectionFetcher?: CollectionFetcher,
) {
  return writeOrders(bulk, await planOrders(bulk, shop, payloads, collectionFetcher));
}

/**
 * Reads and decides everything for a batch of orders without writing: the
 * job worker runs this before it takes SQLite's write lock, so the webhook
 * and click writers wait only for writeOrders.
 */
export async function planOrders(
  bulk: BulkSql,
  shop: ShopFacts,
  payloads: OrderPayload[],
  collectionFetcher?: CollectionFetcher,
): Promise<OrderPlan> {
  const byGid = new Map<string, NormalizedOrder>();
  const payloadOf = new Map<string, OrderPayload>();
  for (const p of payloads) {
    const o = normalizeOrder(p);
    if (!byGid.has(o.gid)) byGid.set(o.gid, o);
    if (!payloadOf.has(o.gid)) payloadOf.set(o.gid, p);
  }
  // Bulk statements (app/db/bulk-sql.server.ts): the `in` lists of a batch
  // hold up to a few hundred values each.
  const scope = { shopId: shop.id };
  const existing = await bulk
    .from("Order")
    .findIn<{ shopifyGid: string }>(["shopifyGid"], scope, "shopifyGid", [...byGid.keys()]);
  for (const e of existing) byGid.delete(e.shopifyGid);
  const orders = [...byGid.values()];
  const plan: OrderPlan = { shopId: shop.id, shop, collectionFetcher, orders: [], collections: [] };
  if (orders.length === 0) return plan;

  // Every signal of the batch, a query each.
  const coupons = await bulk
    .from("Coupon")
    .findIn<{ code: string; affiliateId: string }>(
      ["code", "affiliateId"],
      scope,
      "code",
      unique(orders.flatMap((o) => o.discountCodes)),
    );
  const pixels = await bulk
    .from("PixelEvent")
    .findIn<{ checkoutToken: string; clickId: string | null; referralCode: string | null }>(
      ["checkoutToken", "clickId", "referralCode"],
      scope,
      "checkoutToken",
      unique(orders.map((o) => o.checkoutToken)),
    );
  const clickIds = unique([
    ...orders.map((o) => o.attributes._affiliate_click?.slice(0, 64)),
    ...pixels.map((p) => p.clickId),
  ]);
  const clicks = (
    await bulk.from("Click").findIn<{
      clickId: string;
      createdAt: Date | string;
      affiliateId: string;
      subId: string | null;
      linkTags: string | null;
    }>(["clickId", "createdAt", "affiliateId", "subId", "linkTags"], scope, "clickId", clickIds)
  ).map((c) => ({ ...c, createdAt: new Date(c.createdAt) }));
  const refCodes = unique([
    ...orders.map((o) => o.attributes._affiliate_ref?.trim().toUpperCase().slice(0, 64)),
    ...pixels.map((p) => p.referralCode?.toUpperCase()),
  ]);
  const customerGids = unique(orders.map((o) => o.customerGid));
  const emails = unique(orders.map((o) => o.email));
  const links = await bulk
    .from("CustomerLink")
    .findIn<{ customerKey: string; affiliateId: string }>(["customerKey", "affiliateId"], scope, "customerKey", [
      ...customerGids,
      ...emails,
    ]);
  type Earlier = { customerGid: string | null; customerEmail: string | null };
  const earlier = [
    ...(await bulk.from("Order").findIn<Earlier>(["customerGid", "customerEmail"], scope, "customerGid", customerGids)),
    ...(await bulk.from("Order").findIn<Earlier>(["customerGid", "customerEmail"], scope, "customerEmail", emails)),
  ];

  const renewals = await loadRenewalFacts(bulk, shop.id, orders);

  const affiliateIds = unique([
    ...renewals.affiliateIds,
    ...coupons.map((c) => c.affiliateId),
    ...clicks.map((c) => c.affiliateId),
    ...links.map((l) => l.affiliateId),
  ]);
  const columns: (keyof AffiliateRow)[] = [
    "id",
    "firstName",
    "lastName",
    "referralCode",
    "email",
    "customerGid",
    "status",
    "campaignId",
    "parentId",
  ];
  const affiliateRows: AffiliateRow[] = [
    ...(await bulk.from("Affiliate").findIn<AffiliateRow>(columns, scope, "id", affiliateIds)),
    ...(await bulk.from("Affiliate").findIn<AffiliateRow>(columns, scope, "referralCode", refCodes)),
  ];
  // Codes no affiliate has may be kept from the app the shop used before (ADR 048).
  const ownCodes = new Set(affiliateRows.map((a) => a.referralCode));
  const aliases = await bulk.from("ReferralAlias").findIn<{ code: string; affiliateId: string }>(
    ["code", "affiliateId"],
    scope,
    "code",
    refCodes.filter((c) => !ownCodes.has(c)),
  );
  const aliasIds = unique(aliases.map((a) => a.affiliateId)).filter((id) => !affiliateRows.some((a) => a.id === id));
  affiliateRows.push(...(await bulk.from("Affiliate").findIn<AffiliateRow>(columns, scope, "id", aliasIds)));
  const affiliates = new Map(affiliateRows.map((a) => [a.id, a]));
  const byCode = new Map(affiliateRows.map((a) => [a.referralCode, a]));
  for (const alias of aliases) {
    const owner = affiliates.get(alias.affiliateId);
    if (owner && !byCode.has(alias.code)) byCode.set(alias.code, owner);
  }
  const campaigns = await loadCampaigns(bulk, shop.id, unique(affiliateRows.map((a) => a.campaignId)));
  // MLM is a plan feature: after a downgrade the levels are kept (readable,
  // back on upgrade) but pay no upline.
  if (!planAllows(shop.pricingPlan, "mlm")) for (const campaign of campaigns.values()) campaign.levels = [];

  // Uplines, one query per level for the whole batch.
  const depth = Math.max(1, ...[...campaigns.values()].flatMap((c) => c.levels.map((l) => l.level)));
  let frontier = unique(affiliateRows.map((a) => a.parentId)).filter((id) => !affiliates.has(id));
  for (let level = 2; level <= depth && frontier.length; level++) {
    const parents = await bulk.from("Affiliate").findIn<AffiliateRow>(columns, scope, "id", frontier);
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

  // Per-collection rules need the products' collections (Admin API, cached):
  // read once for the batch when a campaign in play has such a rule.
  const needsCollections = [...campaigns.values()].some((c) => c.rules.some((r) => r.targetType === "collection"));
  const collections = needsCollections
    ? await lookupProductCollections(
        bulk,
        shop,
        unique(orders.flatMap((o) => o.lines.map((l) => l.productGid))),
        collectionFetcher,
      )
    : null;
  plan.collections = collections?.rows ?? [];

  const now = new Date();
  for (const order of orders) {
    const customerKeys = [order.customerGid, order.email].filter((k): k is string => Boolean(k));
    const isNewCustomer = customerKeys.length > 0 && !customerKeys.some((k) => seenCustomers.has(k));
    customerKeys.forEach((k) => seenCustomers.add(k));

    const coupon = order.discountCodes
      .map((c) => ({ code: c, affiliateId: couponByCode.get(c) }))
      .find((c) => c.affiliateId);
    const couponAffiliate = coupon?.affiliateId ? affiliates.get(coupon.affiliateId) : undefined;
    const byClick = signal(order.attributes._affiliate_click, null, order.placedAt);
    const byRef = signal(null, order.attributes._affiliate_ref, order.placedAt);
    const pixelEvent = order.checkoutToken ? pixelByToken.get(order.checkoutToken) : undefined;
    const byPixel = pixelEvent ? signal(pixelEvent.clickId, pixelEvent.referralCode, order.placedAt) : null;
    const lifetimeId = customerKeys.map((k) => linkByKey.get(k)).find(Boolean);
    const lifetime = lifetimeId ? affiliates.get(lifetimeId) : undefined;
    // A subscription's renewal order goes to the affiliate of its first order,
    // as long as the campaign pays renewals (ADR 047); nothing else credits it.
    const renewal = order.isRenewal ? renewals.match(order) : null;
    const renewalDecision = renewal ? decideRenewal(renewal, affiliates, campaigns, order.placedAt) : null;
    const decision: AttributionDecision =
      renewalDecision?.decision ??
      attributeOrder({
        placedAt: order.placedAt,
        buyerEmail: order.email,
        buyerCustomerGid: order.customerGid,
        attributionModel: shop.attributionModel === "first_click" ? "first_click" : "last_click",
        coupon: coupon && couponAffiliate ? { code: coupon.code, affiliate: facts(couponAffiliate) } : null,
        autoApplyLinks: Boolean(shop.autoApplyDiscount),
        links: [byClick, byRef && byRef.affiliate.id !== byClick?.affiliate.id ? byRef : null].filter(
          (l): l is LinkSignal => l !== null,
        ),
        pixel: byPixel,
        lifetime: lifetime ? facts(lifetime) : null,
      });
    // Every signal set against the credit, whichever won (ADR 056).
    const named = (a: { id: string; name: string; code: string } | null | undefined): SignalAffiliate | null =>
      a ? { id: a.id, who: `${a.name} (${a.code})` } : null;
    const signals = reconcileSignals(
      {
        click: named(byClick?.affiliate),
        cart: named(byRef?.affiliate),
        pixel: named(byPixel?.affiliate),
        coupon: named(coupon && couponAffiliate ? facts(couponAffiliate) : null),
        customer: named(lifetime ? facts(lifetime) : null),
      },
      decision.affiliateId,
    );

    const id = randomUUID();
    let snapshot: CommissionSnapshot = { terms: null, chain: [], isNewCustomer, collectionsByProduct: {}, basis: 0 };
    let status = "pending";
    let approveAfter: Date | null = null;
    const commissionRows: Row[] = [];
    const newLinks: Row[] = [];
    const approvals: Row[] = [];
    const credited = decision.affiliateId ? affiliates.get(decision.affiliateId) : undefined;
    const campaign = credited ? campaigns.get(credited.campaignId) : undefined;
    if (credited && campaign) {
      const {
        autoApproveOrders,
        approvalHoldDays,
        lifetimeCustomerLink,
        cookieDays: _cookieDays,
        renewal: _renewal,
        ...campaignTerms
      } = campaign;
      const terms = renewalTerms(campaignTerms, renewalDecision?.rate ?? null);
      const chain = uplineChain(affiliates, credited.id, Math.max(1, ...terms.levels.map((l) => l.level)));
      const collectionsByProduct: Record<string, string[]> = {};
      for (const line of order.lines) {
        const known = line.productGid ? collections?.byProduct[line.productGid] : undefined;
        if (line.productGid && known) collectionsByProduct[line.productGid] = known;
      }
      const outcome = calculateCommissions(terms, {
        currency: order.currency,
        lines: order.lines,
        isNewCustomer,
        collectionsByProduct,
        chain,
      });
      if (
        collections &&
        !collections.complete &&
        terms.rules.some((r) => r.targetType === "collection") &&
        outcome.lines[0]
      ) {
        // Standalone shops have no Admin API: say so where the amount is explained.
        outcome.lines[0].explanation = withCollectionsUnread(outcome.lines[0].explanation);
      }
      snapshot = { terms, chain, isNewCustomer, collectionsByProduct, basis: outcome.basis };
      if (autoApproveOrders) {
        if (approvalHoldDays === 0) status = "approved";
        else approveAfter = new Date(order.placedAt.getTime() + approvalHoldDays * DAY);
      }
      for (const c of outcome.lines) {
        commissionRows.push({
          id: randomUUID(),
          shopId: shop.id,
          orderId: id,
          affiliateId: c.affiliateId,
          level: c.level,
          kind: "sale",
          sourceRef: "",
          explanation: c.explanation,
          amount: c.amount,
          currency: order.currency,
          status,
          payoutId: null,
          createdAt: now,
          updatedAt: now,
        });
      }
      if (lifetimeCustomerLink && decision.source !== "lifetime" && decision.source !== "subscription") {
        for (const customerKey of customerKeys) {
          if (linkByKey.has(customerKey)) continue;
          linkByKey.set(customerKey, credited.id);
          newLinks.push({ id: randomUUID(), shopId: shop.id, customerKey, affiliateId: credited.id, createdAt: now });
        }
      }
      if (approveAfter) {
        approvals.push(
          jobRow("orders.approve", { orderId: id }, { uniqueKey: `approve:${id}`, runAt: approveAfter, now }),
        );
      }
    }
    // Leak watch (ADR 051): the affiliate's code was the order's only signal.
    // The check runs after the commit, in a job (one per affiliate and batch).
    const codeOnly =
      decision.source === "coupon" && !order.attributes._affiliate_click && !order.attributes._affiliate_ref
        ? !pixelEvent && !lifetimeId
        : false;
    const leakCheck =
      codeOnly && decision.affiliateId && coupon
        ? {
            affiliateId: decision.affiliateId,
            job: jobRow(
              "leaks.check",
              { shopId: shop.id, affiliateId: decision.affiliateId, code: coupon.code },
              { uniqueKey: `leak-check:${id}`, now },
            ),
          }
        : undefined;
    // The credited click's tags go with the sale (sub-id report, export).
    const creditedClick = decision.clickId ? clickById.get(decision.clickId) : undefined;
    const orderRow: Row = {
      id,
      shopId: shop.id,
      shopifyGid: order.gid,
      name: order.name,
      customerEmail: order.email,
      customerGid: order.customerGid,
      currency: order.currency,
      subtotal: order.subtotal,
      total: order.total,
      presentmentCurrency: order.presentment?.currency ?? null,
      presentmentTotal: order.presentment?.total ?? null,
      presentmentRate: order.presentment?.rate ?? null,
      status,
      fulfillment: null,
      affiliateId: decision.affiliateId,
      attributionSource: decision.source,
      ...storedAttributionReason(decision.reason),
      subscriptionContractGid: renewal?.contractGid ?? null,
      renewalNumber: renewal?.number ?? null,
      clickId: decision.clickId,
      subId: creditedClick?.subId ?? null,
      linkTags: creditedClick?.linkTags ?? null,
      referringHost: order.referringHost,
      codeOnly: codeOnly || null,
      leakHoldId: null,
      attributionSignals: JSON.stringify(signals),
      checkoutToken: order.checkoutToken ?? null,
      discountCodes: JSON.stringify(order.discountCodes),
      lines: JSON.stringify(order.lines),
      isNewCustomer,
      commissionTerms: JSON.stringify(snapshot),
      refundGids: "[]",
      refundedAmount: 0,
      cancelledAt: order.cancelledAt,
      approveAfter,
      placedAt: order.placedAt,
      createdAt: now,
      updatedAt: now,
    };
    plan.orders.push({
      gid: order.gid,
      payload: payloadOf.get(order.gid)!,
      order: orderRow,
      commissions: commissionRows,
      links: newLinks,
      approvals,
      ...(leakCheck ? { leakCheck } : {}),
      ...(order.checkoutToken && !pixelEvent ? { noPixelToken: order.checkoutToken } : {}),
    });
  }
  return plan;
}

// How many times a batch's renewals are planned again when another batch
// took their numbers meanwhile; each time, another batch must have won.
const RENEWAL_REPLANS = 5;

/**
 * Writes a plan in bulk. The orders are checked once more under the write
 * lock (another worker may have recorded one since the plan was made), so a
 * second delivery still changes nothing; a lifetime link another order
 * created meanwhile is kept as it is. A renewal whose number another batch
 * recorded since the plan was made (the unique key on contract and number)
 * is planned again from what is recorded now, and written then.
 */
export async function writeOrders(bulk: BulkSql, plan: OrderPlan, replans = RENEWAL_REPLANS): Promise<number> {
  if (plan.orders.length === 0) return 0;
  // Another worker may have planned the same order as new (orders/create and
  // orders/paid of one order in two batches): the order goes in only where
  // its key is still free, and its commissions, links, jobs and events only
  // with it. On PostgreSQL the INSERT waits for the other batch's
  // uncommitted row and then skips it, so neither batch fails on the key.
  // Multi-row inserts: the hottest write of the app, where Prisma's
  // createMany cost more than everything else.
  const inserted = new Set(
    await bulk.insertNew(
      "Order",
      plan.orders.map((o) => o.order),
      "shopifyGid",
    ),
  );
  const fresh = plan.orders.filter((o) => inserted.has(o.gid));
  const renumbered = await writeLostRenewals(bulk, plan, inserted, replans);
  await bulk.insertRows(
    "Commission",
    fresh.flatMap((o) => o.commissions),
  );
  await bulk.insertRows(
    "CustomerLink",
    fresh.flatMap((o) => o.links),
    { onConflict: "ignore" },
  );
  await bulk.insertRows(
    "Job",
    fresh.flatMap((o) => o.approvals),
  );
  // One leak check per affiliate and batch: it looks at the whole window, so one sees every order of the batch.
  const leakChecks = new Map<string, Row>();
  for (const o of fresh)
    if (o.leakCheck && !leakChecks.has(o.leakCheck.affiliateId))
      leakChecks.set(o.leakCheck.affiliateId, o.leakCheck.job);
  await bulk.insertRows("Job", [...leakChecks.values()]);
  // A pixel report stored after the plan read none, and before this commit:
  // its own look for the order found nothing, so a job gives the order the
  // pixel's signal after the commit. One read per batch; usually empty.
  const noPixel = fresh.flatMap((o) => (o.noPixelToken ? [o.noPixelToken] : []));
  if (noPixel.length) {
    const late = await bulk
      .from("PixelEvent")
      .findIn<{ checkoutToken: string }>(["checkoutToken"], { shopId: plan.shopId }, "checkoutToken", noPixel);
    const at = new Date();
    await bulk.insertRows(
      "Job",
      late.map((p) =>
        jobRow(
          "pixel.reconcile",
          { shopId: plan.shopId, checkoutToken: p.checkoutToken },
          { uniqueKey: `pixel:${plan.shopId}:${p.checkoutToken}`, now: at },
        ),
      ),
      { onConflict: "ignore" },
    );
  }
  // Domain events (e-mails, outgoing webhooks): each credited sale and each
  // commission it earned, dispatched by shared jobs (dispatchJobRows).
  const now = new Date();
  const credited = domainEventRows(
    plan.shopId,
    "sale.credited",
    fresh.flatMap((o) =>
      o.order.affiliateId ? [{ orderId: String(o.order.id), affiliateId: String(o.order.affiliateId) }] : [],
    ),
    now,
  );
  const earned = domainEventRows(
    plan.shopId,
    "commission.created",
    fresh.flatMap((o) =>
      o.commissions.map((c) => ({
        commissionId: String(c.id),
        affiliateId: String(c.affiliateId),
        orderId: String(c.orderId),
        kind: String(c.kind),
        amount: Number(c.amount),
        currency: String(c.currency),
      })),
    ),
    now,
  );
  const events = [...credited, ...earned];
  await bulk.insertRows("DomainEvent", events);
  await bulk.insertRows("Job", dispatchJobRows(events, now));
  await bulk.insertRows("ProductCollections", plan.collections, {
    onConflict: { key: ["shopId", "productGid"], update: ["collectionGids", "fetchedAt"] },
  });
  return fresh.length + renumbered;
}

/**
 * The renewals of a plan that did not go in although no order of theirs is
 * recorded: their contract's number was taken by another batch between the
 * plan and the write (on PostgreSQL the INSERT waited for that batch's
 * commit). They are planned again (the next number, and whether the policy
 * still pays it) and written; only the orders that went in emit anything.
 */
async function writeLostRenewals(bulk: BulkSql, plan: OrderPlan, inserted: Set<string>, replans: number) {
  const missed = plan.orders.filter((o) => !inserted.has(o.gid) && o.order.renewalNumber !== null);
  if (missed.length === 0) return 0;
  const recorded = new Set(
    (
      await bulk.from("Order").findIn<{ shopifyGid: string }>(
        ["shopifyGid"],
        { shopId: plan.shopId },
        "shopifyGid",
        missed.map((o) => o.gid),
      )
    ).map((o) => o.shopifyGid),
  );
  const lost = missed.filter((o) => !recorded.has(o.gid));
  if (lost.length === 0) return 0;
  // The job fails and is retried later, from scratch, rather than loop.
  if (replans <= 0)
    throw new Error(`Renewal numbers kept being taken for orders ${lost.map((o) => o.gid).join(", ")}.`);
  const again = await planOrders(
    bulk,
    plan.shop,
    lost.map((o) => o.payload),
    plan.collectionFetcher,
  );
  return writeOrders(bulk, again, replans - 1);
}

async function loadCampaigns(bulk: BulkSql, shopId: string, ids: string[]): Promise<Map<string, CampaignRow>> {
  type Campaign = {
    id: string;
    commissionType: string;
    commissionValue: number;
    newCustomerValue: number | null;
    autoApproveOrders: unknown;
    approvalHoldDays: number;
    lifetimeCustomerLink: unknown;
    cookieDays: number;
    renewalPolicy: string;
    renewalLimit: number | null;
    renewalCommissionType: string | null;
    renewalCommissionValue: number | null;
  };
  type Level = { campaignId: string; level: number; basis: string; rate: number };
  type Rule = {
    campaignId: string;
    targetType: string;
    targetGid: string;
    kind: string;
    commissionType: string;
    value: number;
  };
  const rows = await bulk
    .from("Campaign")
    .findIn<Campaign>(
      [
        "id",
        "commissionType",
        "commissionValue",
        "newCustomerValue",
        "autoApproveOrders",
        "approvalHoldDays",
        "lifetimeCustomerLink",
        "cookieDays",
        "renewalPolicy",
        "renewalLimit",
        "renewalCommissionType",
        "renewalCommissionValue",
      ],
      { shopId },
      "id",
      ids,
    );
  const levels = await bulk
    .from("CampaignLevel")
    .findIn<Level>(["campaignId", "level", "basis", "rate"], {}, "campaignId", ids);
  const rules = await bulk
    .from("CommissionRule")
    .findIn<Rule>(["campaignId", "targetType", "targetGid", "kind", "commissionType", "value"], {}, "campaignId", ids);
  return new Map(
    rows.map((c) => [
      c.id,
      {
        commissionType: c.commissionType as CampaignTerms["commissionType"],
        commissionValue: c.commissionValue,
        newCustomerValue: c.newCustomerValue,
        rules: rules
          .filter((r) => r.campaignId === c.id)
          .map((r) => ({
            targetType: r.targetType as "product" | "collection",
            targetGid: r.targetGid,
            kind: r.kind as "rate" | "exclude",
            commissionType: r.commissionType as "percent" | "flat_item",
            value: r.value,
          })),
        levels: levels
          .filter((l) => l.campaignId === c.id)
          .sort((a, b) => a.level - b.level)
          .map((l) => ({
            level: l.level,
            basis: l.basis as "percent_of_sale" | "percent_of_commission",
            rate: l.rate,
          })),
        autoApproveOrders: bool(c.autoApproveOrders),
        approvalHoldDays: c.approvalHoldDays,
        lifetimeCustomerLink: bool(c.lifetimeCustomerLink),
        cookieDays: c.cookieDays,
        renewal: renewalPolicyOf(c),
      },
    ]),
  );
}

/**
 * [level 1 affiliate, level 2 upline, ...] up to `depth`, with null where an
 * upline is not approved. A cycle in the data (which the app refuses to
 * create) stops the walk instead of looping.
 */
/** [level 1, level 2, ...]: the affiliate and their uplines, null where an upline is not approved. */
export function uplineChain(
  affiliates: Map<string, { id: string; parentId: string | null; status: string }>,
  affiliateId: string,
  depth: number,
): (string | null)[] {
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

/** A renewal order matched to its contract: which renewal it is, and the contract's first order. */
interface RenewalMatch {
  contractGid: string;
  number: number;
  startedAt: Date;
  originAffiliateId: string | null;
}

type StoredLine = { productGid?: string | null; sellingPlanGid?: string | null };
const linesOf = (json: string | null | undefined) => {
  const lines = JSON.parse(json || "[]") as StoredLine[];
  return {
    productGids: unique(lines.map((l) => l.productGid)),
    sellingPlanGids: unique(lines.map((l) => l.sellingPlanGid)),
  };
};

/**
 * The subscription facts of a batch's renewal orders (Shopify's
 * source_name "subscription_contract"): the customer's contracts
 * (subscription_contracts webhooks), their first orders, and how many
 * renewals of each are recorded already. A renewal no known contract
 * claims (another app's contract: its webhooks never reach this app) is
 * matched to an implied contract, started by the customer's first order
 * that held it, when that order was credited (implied-contract.ts).
 * `match` numbers the batch's renewals on from there, in the batch's order.
 */
async function loadRenewalFacts(bulk: BulkSql, shopId: string, orders: NormalizedOrder[]) {
  const scope = { shopId };
  const renewalOrders = orders.filter((o) => o.isRenewal && o.customerGid);
  if (renewalOrders.length === 0) return { affiliateIds: [] as string[], match: (_o: NormalizedOrder) => null };
  const customerGids = unique(renewalOrders.map((o) => o.customerGid));
  type Contract = { contractGid: string; originOrderGid: string | null; customerGid: string | null };
  const contracts = await bulk
    .from("SubscriptionContract")
    .findIn<Contract>(["contractGid", "originOrderGid", "customerGid"], scope, "customerGid", customerGids);
  // The customers' orders: the first orders of their contracts, and the
  // candidates an implied contract may have started from.
  type Past = {
    shopifyGid: string;
    customerGid: string | null;
    affiliateId: string | null;
    placedAt: Date | string;
    lines: string;
    subscriptionContractGid: string | null;
  };
  const past = await bulk
    .from("Order")
    .findIn<Past>(
      ["shopifyGid", "customerGid", "affiliateId", "placedAt", "lines", "subscriptionContractGid"],
      scope,
      "customerGid",
      customerGids,
    );
  const originGids = new Set(unique(contracts.map((c) => c.originOrderGid)));
  const origins = new Map(past.filter((o) => originGids.has(o.shopifyGid)).map((o) => [o.shopifyGid, o]));
  // A first order recorded without the customer (or under another one) is still the contract's.
  const elsewhere = [...originGids].filter((gid) => !origins.has(gid));
  for (const o of await bulk
    .from("Order")
    .findIn<Past>(
      ["shopifyGid", "customerGid", "affiliateId", "placedAt", "lines", "subscriptionContractGid"],
      scope,
      "shopifyGid",
      elsewhere,
    ))
    origins.set(o.shopifyGid, o);
  // Only contracts whose first order the app has recorded can be followed.
  const known = contracts.flatMap((c) => {
    const origin = c.originOrderGid ? origins.get(c.originOrderGid) : undefined;
    if (!origin) return [];
    return [{ contract: c, origin, originProducts: linesOf(origin.lines).productGids }];
  });
  const candidates = past
    .filter((o) => o.subscriptionContractGid === null && !originGids.has(o.shopifyGid))
    .map((o) => ({ ...o, ...linesOf(o.lines), gid: o.shopifyGid, placedAt: new Date(o.placedAt) }));

  type Found = { contractGid: string; startedAt: Date; originAffiliateId: string | null };
  const found = new Map<NormalizedOrder, Found>();
  for (const order of renewalOrders) {
    const mine = known.filter((k) => k.contract.customerGid === order.customerGid);
    const byContract = matchContract(mine, unique(order.lines.map((l) => l.productGid)));
    if (byContract) {
      found.set(order, {
        contractGid: byContract.contract.contractGid,
        startedAt: new Date(byContract.origin.placedAt),
        originAffiliateId: byContract.origin.affiliateId,
      });
      continue;
    }
    const lines = {
      productGids: unique(order.lines.map((l) => l.productGid)),
      sellingPlanGids: unique(order.lines.map((l) => l.sellingPlanGid)),
    };
    const key = impliedContractKey(order.customerGid, lines);
    const origin = key
      ? impliedOrigin(
          candidates.filter((c) => c.customerGid === order.customerGid),
          { ...lines, placedAt: order.placedAt },
        )
      : null;
    // An uncredited first order makes an ordinary order, as for a known contract.
    if (key && origin?.affiliateId)
      found.set(order, { contractGid: key, startedAt: origin.placedAt, originAffiliateId: origin.affiliateId });
  }

  const counted = await bulk
    .from("Order")
    .findIn<{ subscriptionContractGid: string }>(
      ["subscriptionContractGid"],
      scope,
      "subscriptionContractGid",
      unique([...found.values()].map((f) => f.contractGid)),
    );
  const renewalsSoFar = new Map<string, number>();
  for (const r of counted)
    renewalsSoFar.set(r.subscriptionContractGid, (renewalsSoFar.get(r.subscriptionContractGid) ?? 0) + 1);
  return {
    affiliateIds: unique([
      ...known.map((k) => k.origin.affiliateId),
      ...[...found.values()].map((f) => f.originAffiliateId),
    ]),
    match: (order: NormalizedOrder): RenewalMatch | null => {
      const hit = found.get(order);
      if (!hit) return null;
      const number = (renewalsSoFar.get(hit.contractGid) ?? 0) + 1;
      renewalsSoFar.set(hit.contractGid, number);
      return { ...hit, number };
    },
  };
}

/**
 * A renewal of a subscription whose first order was credited: credited to
 * the same affiliate while their campaign pays renewals and they are
 * approved, otherwise to no one (with the reason). Null when the first order
 * was credited to no one: the renewal is then an ordinary order.
 */
function decideRenewal(
  renewal: RenewalMatch,
  affiliates: Map<string, AffiliateRow>,
  campaigns: Map<string, CampaignRow>,
  placedAt: Date,
): { decision: AttributionDecision; rate: RenewalPolicy["rate"] } | null {
  const affiliate = renewal.originAffiliateId ? affiliates.get(renewal.originAffiliateId) : undefined;
  const campaign = affiliate ? campaigns.get(affiliate.campaignId) : undefined;
  if (!affiliate || !campaign) return null;
  const values = {
    who: `${`${affiliate.firstName} ${affiliate.lastName}`.trim()} (${affiliate.referralCode})`,
    renewal: renewal.number,
    started: renewal.startedAt.toISOString(),
  };
  const none = (key: (typeof ATTRIBUTION_REASON_KEYS)[keyof typeof ATTRIBUTION_REASON_KEYS], extra = {}) => ({
    decision: {
      affiliateId: null,
      source: "none" as const,
      clickId: null,
      reason: { key, values: { ...values, ...extra } },
    },
    rate: null,
  });
  const verdict = renewalVerdict(campaign.renewal, renewal.number, renewal.startedAt, placedAt);
  if (!verdict.pays) return none(ATTRIBUTION_REASON_KEYS.renewalEnded);
  if (affiliate.status !== "approved")
    return none(ATTRIBUTION_REASON_KEYS.renewalRefused, { status: affiliate.status });
  return {
    decision: {
      affiliateId: affiliate.id,
      source: "subscription",
      clickId: null,
      reason: { key: ATTRIBUTION_REASON_KEYS.renewal, values },
    },
    rate: verdict.rate,
  };
}

/**
 * A renewal's own rate replaces the campaign's rate (and its first-order
 * rate and product rates); exclusions still apply. Null: the campaign's terms.
 */
function renewalTerms(terms: CampaignTerms, rate: RenewalPolicy["rate"]): CampaignTerms {
  if (!rate) return terms;
  return {
    ...terms,
    commissionType: rate.commissionType,
    commissionValue: rate.value,
    newCustomerValue: null,
    rules: terms.rules.filter((r) => r.kind === "exclude"),
  };
}
