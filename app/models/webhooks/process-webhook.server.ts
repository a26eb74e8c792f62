import { dbProvider } from "../../db.server";
import { ANY_SHOP, prismaBulk, type BulkSql, type SqlValue } from "../../db/bulk-sql.server";
import { z } from "zod";
import { deleteProduct, productPayloadSchema, upsertProducts } from "../portal/product-catalogue.server";
import { InvalidPayloadError } from "../../db/job-queue.server";
import type { Tx } from "../../db/transaction";
import { applyRefund, cancelOrder, refundPayloadSchema, type RefundPayload } from "../orders/adjust-order.server";
import { planOrders, recordOrders, writeOrders, type OrderPlan } from "../orders/record-order.server";
import { eraseShop, exportCustomerData, markUninstalled, redactCustomer } from "../privacy/compliance.server";
import { appSubscriptionUpdateSchema, applySubscriptionUpdate } from "../plans/subscription-webhook.server";
import { orderPayloadSchema, type OrderPayload } from "../shopify/order-payload";
import { enqueueJob, jobRow } from "../jobs/enqueue.server";
import {
  mayBeReferral,
  referralOrderJobKey,
  referralProgramEverSet,
  referralProgramOn,
} from "../referrals/referral-candidate";
import { parseShopifyJson } from "../shopify/safe-json";
import { contractPayloadSchema } from "../subscriptions/contract-payload";
import { recordContract } from "../subscriptions/record-contract.server";
import {
  appUninstalledSchema,
  customersDataRequestSchema,
  customersRedactSchema,
  describeIssues,
  shopRedactSchema,
} from "./webhook-body";

// What each webhook topic does, run by the job worker inside one transaction
// with the job's "done" mark.

export const WEBHOOK_TOPICS = [
  "orders/create",
  "orders/paid",
  "orders/cancelled",
  "refunds/create",
  "app/uninstalled",
  "app/scopes_update",
  "products/create",
  "products/update",
  "products/delete",
  "app_subscriptions/update",
  "subscription_contracts/create",
  "subscription_contracts/update",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;

const productDeleteSchema = z.object({ id: z.union([z.string(), z.number()]) });
// Only its shape is checked: what it says is read back from Shopify (shop/granted-scopes.server.ts).
const scopesUpdateSchema = z.object({ current: z.array(z.string()), previous: z.array(z.string()).optional() });

// Each topic's body, checked before anything is done with it.
const BODY_SCHEMAS = {
  "orders/create": orderPayloadSchema,
  "orders/paid": orderPayloadSchema,
  "orders/cancelled": orderPayloadSchema,
  "refunds/create": refundPayloadSchema,
  "products/create": productPayloadSchema,
  "products/update": productPayloadSchema,
  "products/delete": productDeleteSchema,
  "app/uninstalled": appUninstalledSchema,
  "app/scopes_update": scopesUpdateSchema,
  "app_subscriptions/update": appSubscriptionUpdateSchema,
  "subscription_contracts/create": contractPayloadSchema,
  "subscription_contracts/update": contractPayloadSchema,
  "customers/data_request": customersDataRequestSchema,
  "customers/redact": customersRedactSchema,
  "shop/redact": shopRedactSchema,
} satisfies Record<(typeof WEBHOOK_TOPICS)[number], z.ZodTypeAny>;
type Bodies = { [T in keyof typeof BODY_SCHEMAS]: z.infer<(typeof BODY_SCHEMAS)[T]> };

type ReadBody = { ok: true; body: unknown } | { ok: false; message: string };

/** Parses and checks a stored body; a body that does not fit its topic never will. */
function readBody(topic: string, payload: string): ReadBody {
  const schema = (BODY_SCHEMAS as Record<string, z.ZodTypeAny>)[topic];
  let raw: unknown;
  try {
    raw = parseShopifyJson(payload);
  } catch {
    return { ok: false, message: `Malformed ${topic} body: it is not valid JSON.` };
  }
  if (!schema) return { ok: true, body: raw };
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, message: describeIssues(topic, parsed.error) };
}

/** The "webhook" job: one stored webhook processed by its topic. */
export async function processEvent(tx: Tx, eventId: string) {
  const event = await tx.webhookEvent.findUnique({ where: { id: eventId } });
  if (!event || event.processedAt) return;
  const read = readBody(event.topic, event.payload);
  // A signed body that does not fit its topic never will: the job fails at
  // once, logged once, and keeps the reason (jobs/job-queue.server.ts).
  if (!read.ok) throw new InvalidPayloadError(read.message);
  const shop = await tx.shop.findUnique({
    where: { domain: event.shopDomain },
    select: {
      id: true,
      domain: true,
      attributionModel: true,
      pricingPlan: true,
      autoApplyDiscount: true,
      uninstalledAt: true,
      settings: true,
    },
  });
  const body = <T extends keyof Bodies>(_topic: T) => read.body as Bodies[T];

  switch (event.topic) {
    case "orders/create":
    case "orders/paid": {
      // An uninstalled (or unknown) shop's orders are not ours to track.
      if (!shop || shop.uninstalledAt) break;
      const order = body("orders/create");
      await recordOrders(prismaBulk(tx, dbProvider()), shop, [order]);
      if (referralProgramOn(shop.settings) && mayBeReferral(order))
        await enqueueJob(
          tx,
          "referrals.order",
          { shopId: shop.id, eventId: event.id },
          { uniqueKey: referralOrderJobKey(shop.id, order.admin_graphql_api_id) },
        );
      break;
    }
    case "orders/cancelled": {
      if (!shop) break;
      const payload = body("orders/cancelled");
      // The order may not have been seen yet (webhooks arrive in any order):
      // record it first, then cancel.
      if (!shop.uninstalledAt) await recordOrders(prismaBulk(tx, dbProvider()), shop, [payload]);
      await cancelOrder(
        tx,
        shop.id,
        payload.admin_graphql_api_id,
        payload.cancelled_at ? new Date(payload.cancelled_at) : new Date(),
      );
      if (referralProgramEverSet(shop.settings))
        await enqueueJob(tx, "referrals.order-adjusted", { shopId: shop.id, orderGid: payload.admin_graphql_api_id });
      break;
    }
    case "refunds/create": {
      if (!shop) break;
      const refund = body("refunds/create");
      await applyRefund(prismaBulk(tx, dbProvider()), shop.id, refund);
      if (referralProgramEverSet(shop.settings))
        await enqueueJob(tx, "referrals.order-adjusted", {
          shopId: shop.id,
          orderGid: `gid://shopify/Order/${refund.order_id}`,
        });
      break;
    }
    case "products/create":
    case "products/update": {
      // The portal's catalogue (link builder, the affiliates' products page).
      if (!shop || shop.uninstalledAt) break;
      const product = body("products/create");
      await upsertProducts(shop.id, [product], tx);
      // Collection rules read the product's collections afresh next time.
      await tx.productCollections.deleteMany({ where: { shopId: shop.id, productGid: product.admin_graphql_api_id } });
      break;
    }
    case "products/delete": {
      if (!shop) break;
      const gid = `gid://shopify/Product/${body("products/delete").id}`;
      await deleteProduct(shop.id, gid, tx);
      await tx.productCollections.deleteMany({ where: { shopId: shop.id, productGid: gid } });
      break;
    }
    case "app_subscriptions/update":
      if (shop && !shop.uninstalledAt) await applySubscriptionUpdate(tx, shop, body("app_subscriptions/update"));
      break;
    case "subscription_contracts/create":
    case "subscription_contracts/update":
      // The contract's link to its first order: renewal orders are credited
      // through it (subscriptions/, ADR 047).
      if (shop && !shop.uninstalledAt) await recordContract(tx, shop.id, body("subscription_contracts/create"));
      break;
    case "app/uninstalled":
      await markUninstalled(tx, event.shopDomain);
      break;
    case "app/scopes_update":
      if (shop && !shop.uninstalledAt) await enqueueJob(tx, "scopes.refresh", { shopDomain: shop.domain });
      break;
    case "customers/data_request":
      if (shop) await exportCustomerData(tx, shop.id, body("customers/data_request"));
      break;
    case "customers/redact":
      if (shop) await redactCustomer(tx, shop.id, body("customers/redact"));
      break;
    case "shop/redact":
      // The door refuses it for an installed shop; an installation since
      // then (or meanwhile) keeps its data too.
      if (shop && !shop.uninstalledAt) break;
      if (await eraseShop(tx, event.shopDomain, { force: true })) return; // the event row went with the shop
      break;
    default:
      break;
  }
  await tx.webhookEvent.update({ where: { id: event.id }, data: { processedAt: new Date() } });
}

type Row = Record<string, SqlValue>;

const ORDER_TOPICS = new Set(["orders/create", "orders/paid"]);
const BATCH_TOPICS = new Set([...ORDER_TOPICS, "refunds/create"]);

/** New orders and refunds can be written many at once; every other topic one by one. */
export const isBatchableWebhook = (payload: { topic?: string }) => BATCH_TOPICS.has(payload.topic ?? "");

/**
 * orders/create, orders/paid and refunds/create webhooks in bulk: their
 * events read in one statement and the orders of each shop planned together
 * (planOrders); the returned step writes them, then applies the refunds
 * (after the orders, so a refund in the same batch as its order finds it),
 * and marks the events processed.
 */
export async function planWebhookEvents(bulk: BulkSql, eventIds: string[]) {
  type Event = {
    id: string;
    shopDomain: string;
    topic: string;
    webhookId: string;
    payload: string;
    processedAt: unknown;
  };
  // In the order the jobs were claimed (the order the webhooks arrived).
  const position = new Map(eventIds.map((id, i) => [id, i]));
  const events = (
    await bulk.from("WebhookEvent").findIn<Event>(
      ["id", "shopDomain", "topic", "webhookId", "payload", "processedAt"],
      // Stored webhooks from the job queue; their shop is known after this read (shopDomain).
      { shopId: ANY_SHOP },
      "id",
      eventIds,
    )
  )
    .filter((e) => e.processedAt === null && BATCH_TOPICS.has(e.topic))
    .sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  // A malformed body is set aside (its job fails at once, with the reason);
  // the rest of the batch goes on together.
  const rejected: { index: number; message: string }[] = [];
  const byShop = new Map<string, { event: Event; order: OrderPayload }[]>();
  const refunds: { event: Event; refund: RefundPayload }[] = [];
  for (const e of events) {
    const read = readBody(e.topic, e.payload);
    if (!read.ok) {
      rejected.push({ index: position.get(e.id)!, message: read.message });
      continue;
    }
    if (e.topic === "refunds/create") refunds.push({ event: e, refund: read.body as RefundPayload });
    else {
      const group = byShop.get(e.shopDomain) ?? [];
      if (group.length === 0) byShop.set(e.shopDomain, group);
      group.push({ event: e, order: read.body as OrderPayload });
    }
  }
  type ShopRow = {
    id: string;
    domain: string;
    attributionModel: string;
    pricingPlan: string | null;
    autoApplyDiscount: boolean | number;
    uninstalledAt: unknown;
    settings: string | null;
  };
  const shops = new Map<string, ShopRow | undefined>();
  const shopOf = async (domain: string) => {
    if (!shops.has(domain)) {
      const [shop] = await bulk
        .from("Shop")
        .findIn<ShopRow>(
          ["id", "domain", "attributionModel", "pricingPlan", "autoApplyDiscount", "uninstalledAt", "settings"],
          {},
          "domain",
          [domain],
        );
      shops.set(domain, shop);
    }
    return shops.get(domain);
  };
  const steps: { plan: OrderPlan | null; shopId: string | null; eventIds: string[]; referralJobs: Row[] }[] = [];
  for (const [domain, group] of byShop) {
    const shop = await shopOf(domain);
    // An uninstalled (or unknown) shop's orders are not ours to track.
    const tracked = shop && shop.uninstalledAt === null;
    const plan = tracked
      ? await planOrders(
          bulk,
          shop,
          group.map((g) => g.order),
        )
      : null;
    // Refer-a-friend: the orders of this batch that may be referrals, each
    // for the order job (one per order: a later webhook of it adds none).
    const now = new Date();
    const fresh = new Set(plan?.orders.map((o) => o.gid));
    const referralJobs =
      plan && shop && referralProgramOn(shop.settings)
        ? group
            .filter((g) => fresh.has(g.order.admin_graphql_api_id) && mayBeReferral(g.order))
            .map((g) =>
              jobRow(
                "referrals.order",
                { shopId: shop.id, eventId: g.event.id },
                { uniqueKey: referralOrderJobKey(shop.id, g.order.admin_graphql_api_id), now },
              ),
            )
        : [];
    steps.push({ plan, shopId: shop?.id ?? null, eventIds: group.map((g) => g.event.id), referralJobs });
  }
  // A refund is read and computed in the write step: what it adjusts (the
  // order's kept lines, its commissions) must be read where it is written.
  const refundSteps: { shop: ShopRow | undefined; eventId: string; refund: RefundPayload; key: string }[] = [];
  for (const { event, refund } of refunds)
    refundSteps.push({
      shop: await shopOf(event.shopDomain),
      eventId: event.id,
      refund,
      key: `${event.shopDomain}\u0000${refund.order_id}`,
    });
  // In order of their order (the refunds of one order as they came): on
  // PostgreSQL each locks its order row, and two batches that take the same
  // rows in the same order wait for each other instead of deadlocking.
  refundSteps.sort((a, b) =>
    a.refund.order_id < b.refund.order_id ? -1 : a.refund.order_id > b.refund.order_id ? 1 : 0,
  );
  return {
    rejected,
    write: async (writer: BulkSql) => {
      for (const step of steps) {
        if (step.plan) await writeOrders(writer, step.plan);
        await writer.insertRows("Job", step.referralJobs, { onConflict: "ignore" });
        // The events are stamped with their shop here (their shopId may still be empty).
        await writer.updateIn(
          "WebhookEvent",
          { processedAt: new Date(), shopId: step.shopId },
          { shopId: ANY_SHOP },
          "id",
          step.eventIds,
        );
      }
      for (const { shop, eventId, refund } of refundSteps) {
        const now = new Date();
        if (shop) {
          await applyRefund(writer, shop.id, refund, now);
          if (referralProgramEverSet(shop.settings))
            await writer.insertRows("Job", [
              jobRow(
                "referrals.order-adjusted",
                { shopId: shop.id, orderGid: `gid://shopify/Order/${refund.order_id}` },
                { now },
              ),
            ]);
        }
        await writer.updateIn(
          "WebhookEvent",
          { processedAt: now, shopId: shop?.id ?? null },
          { shopId: ANY_SHOP },
          "id",
          [eventId],
        );
      }
    },
  };
}
