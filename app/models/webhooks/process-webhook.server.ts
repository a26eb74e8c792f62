import { dbProvider } from "../../db.server";
import { prismaBulk, type BulkSql } from "../../db/bulk-sql.server";
import { z } from "zod";
import { deleteProduct, productPayloadSchema, upsertProducts } from "../portal/product-catalogue.server";
import type { Tx } from "../../db/transaction";
import { applyRefund, cancelOrder, refundPayloadSchema } from "../orders/adjust-order.server";
import { planOrders, recordOrders, writeOrders, type OrderPlan } from "../orders/record-order.server";
import { eraseShop, exportCustomerData, markUninstalled, redactCustomer } from "../privacy/compliance.server";
import { orderPayloadSchema } from "../shopify/order-payload";
import { parseShopifyJson } from "../shopify/safe-json";

// What each webhook topic does, run by the job worker inside one transaction
// with the job's "done" mark.

export const WEBHOOK_TOPICS = [
  "orders/create",
  "orders/paid",
  "orders/cancelled",
  "refunds/create",
  "app/uninstalled",
  "products/create",
  "products/update",
  "products/delete",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;

/** The "webhook" job: one stored webhook processed by its topic. */
export async function processEvent(tx: Tx, eventId: string) {
  const event = await tx.webhookEvent.findUnique({ where: { id: eventId } });
  if (!event || event.processedAt) return;
  const body = parseShopifyJson(event.payload);
  const shop = await tx.shop.findUnique({
    where: { domain: event.shopDomain },
    select: { id: true, domain: true, attributionModel: true, uninstalledAt: true },
  });

  switch (event.topic) {
    case "orders/create":
    case "orders/paid": {
      // An uninstalled (or unknown) shop's orders are not ours to track.
      if (!shop || shop.uninstalledAt) break;
      const payload = orderPayloadSchema.parse(body);
      await recordOrders(prismaBulk(tx, dbProvider()), shop, [payload]);
      break;
    }
    case "orders/cancelled": {
      if (!shop) break;
      const payload = orderPayloadSchema.parse(body);
      // The order may not have been seen yet (webhooks arrive in any order):
      // record it first, then cancel.
      if (!shop.uninstalledAt) await recordOrders(prismaBulk(tx, dbProvider()), shop, [payload]);
      await cancelOrder(
        tx,
        shop.id,
        payload.admin_graphql_api_id,
        payload.cancelled_at ? new Date(payload.cancelled_at) : new Date(),
      );
      break;
    }
    case "refunds/create": {
      if (!shop) break;
      await applyRefund(tx, shop.id, refundPayloadSchema.parse(body));
      break;
    }
    case "products/create":
    case "products/update": {
      // The portal's catalogue (link builder, the affiliates' products page).
      if (!shop || shop.uninstalledAt) break;
      const product = productPayloadSchema.parse(body);
      await upsertProducts(shop.id, [product], tx);
      // Collection rules read the product's collections afresh next time.
      await tx.productCollections.deleteMany({ where: { shopId: shop.id, productGid: product.admin_graphql_api_id } });
      break;
    }
    case "products/delete": {
      if (!shop) break;
      const { id } = z.object({ id: z.union([z.string(), z.number()]) }).parse(body);
      const gid = `gid://shopify/Product/${id}`;
      await deleteProduct(shop.id, gid, tx);
      await tx.productCollections.deleteMany({ where: { shopId: shop.id, productGid: gid } });
      break;
    }
    case "app/uninstalled":
      await markUninstalled(tx, event.shopDomain);
      break;
    case "customers/data_request":
      if (shop) await exportCustomerData(tx, shop.id, body as Parameters<typeof exportCustomerData>[2]);
      break;
    case "customers/redact":
      if (shop) await redactCustomer(tx, shop.id, body as Parameters<typeof redactCustomer>[2]);
      break;
    case "shop/redact":
      await eraseShop(tx, event.shopDomain, { force: true });
      return; // the event row went with the shop
    default:
      break;
  }
  await tx.webhookEvent.update({ where: { id: event.id }, data: { processedAt: new Date() } });
}

const ORDER_TOPICS = new Set(["orders/create", "orders/paid"]);

/** New orders can be recorded many at once; every other topic one by one. */
export const isBatchableWebhook = (payload: { topic?: string }) => ORDER_TOPICS.has(payload.topic ?? "");

/**
 * orders/create and orders/paid webhooks in bulk: their events read in one
 * statement and the orders of each shop planned together (planOrders); the
 * returned step writes them and marks the events processed.
 */
export async function planOrderEvents(bulk: BulkSql, eventIds: string[]) {
  type Event = { id: string; shopDomain: string; topic: string; payload: string; processedAt: unknown };
  // In the order the jobs were claimed (the order the webhooks arrived).
  const position = new Map(eventIds.map((id, i) => [id, i]));
  const events = (
    await bulk.findIn<Event>(
      "WebhookEvent",
      ["id", "shopDomain", "topic", "payload", "processedAt"],
      {},
      "id",
      eventIds,
    )
  )
    .filter((e) => e.processedAt === null && ORDER_TOPICS.has(e.topic))
    .sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  const byShop = new Map<string, Event[]>();
  for (const e of events) byShop.set(e.shopDomain, [...(byShop.get(e.shopDomain) ?? []), e]);
  const steps: { plan: OrderPlan | null; shopId: string | null; eventIds: string[] }[] = [];
  for (const [domain, group] of byShop) {
    const [shop] = await bulk.findIn<{ id: string; domain: string; attributionModel: string; uninstalledAt: unknown }>(
      "Shop",
      ["id", "domain", "attributionModel", "uninstalledAt"],
      {},
      "domain",
      [domain],
    );
    // An uninstalled (or unknown) shop's orders are not ours to track.
    const tracked = shop && shop.uninstalledAt === null;
    const plan = tracked
      ? await planOrders(
          bulk,
          shop,
          group.map((e) => orderPayloadSchema.parse(parseShopifyJson(e.payload))),
        )
      : null;
    steps.push({ plan, shopId: shop?.id ?? null, eventIds: group.map((e) => e.id) });
  }
  return async (writer: BulkSql) => {
    for (const step of steps) {
      if (step.plan) await writeOrders(writer, step.plan);
      await writer.updateIn("WebhookEvent", { processedAt: new Date(), shopId: step.shopId }, "id", step.eventIds);
    }
  };
}
