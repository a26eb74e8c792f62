import { registerJobHandler, type Tx } from "../jobs/job-queue.server";
import { applyRefund, approveIfStillPending, cancelOrder, refundPayloadSchema } from "../orders/adjust-order.server";
import { recordOrder, recordOrders } from "../orders/record-order.server";
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
  "customers/data_request",
  "customers/redact",
  "shop/redact",
] as const;

async function processEvent(tx: Tx, eventId: string) {
  const event = await tx.webhookEvent.findUnique({ where: { id: eventId } });
  if (!event || event.processedAt) return;
  const body = parseShopifyJson(event.payload);
  const shop = await tx.shop.findUnique({ where: { domain: event.shopDomain }, select: { id: true, attributionModel: true, uninstalledAt: true } });

  switch (event.topic) {
    case "orders/create":
    case "orders/paid": {
      // An uninstalled (or unknown) shop's orders are not ours to track.
      if (!shop || shop.uninstalledAt) break;
      const payload = orderPayloadSchema.parse(body);
      await recordOrder(tx, shop, payload);
      break;
    }
    case "orders/cancelled": {
      if (!shop) break;
      const payload = orderPayloadSchema.parse(body);
      // The order may not have been seen yet (webhooks arrive in any order):
      // record it first, then cancel.
      if (!shop.uninstalledAt) await recordOrder(tx, shop, payload);
      await cancelOrder(tx, shop.id, payload.admin_graphql_api_id, payload.cancelled_at ? new Date(payload.cancelled_at) : new Date());
      break;
    }
    case "refunds/create": {
      if (!shop) break;
      await applyRefund(tx, shop.id, refundPayloadSchema.parse(body));
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

/**
 * Many webhooks at once: new orders are recorded in bulk per shop; anything
 * else is processed one event after the other, in the same transaction.
 */
async function processEvents(tx: Tx, eventIds: string[]) {
  const events = await tx.webhookEvent.findMany({ where: { id: { in: eventIds }, processedAt: null }, orderBy: { receivedAt: "asc" } });
  const orderEvents = events.filter((e) => e.topic === "orders/create" || e.topic === "orders/paid");
  const byShop = new Map<string, typeof orderEvents>();
  for (const e of orderEvents) byShop.set(e.shopDomain, [...(byShop.get(e.shopDomain) ?? []), e]);
  for (const [domain, group] of byShop) {
    const shop = await tx.shop.findUnique({ where: { domain }, select: { id: true, attributionModel: true, uninstalledAt: true } });
    if (shop && !shop.uninstalledAt) {
      await recordOrders(
        tx,
        shop,
        group.map((e) => orderPayloadSchema.parse(parseShopifyJson(e.payload))),
      );
    }
    await tx.webhookEvent.updateMany({ where: { id: { in: group.map((e) => e.id) } }, data: { processedAt: new Date(), shopId: shop?.id ?? null } });
  }
  for (const e of events) {
    if (e.topic !== "orders/create" && e.topic !== "orders/paid") await processEvent(tx, e.id);
  }
}

let registered = false;

/** Registers the job handlers of the core loop (idempotent). */
export function registerCoreJobs() {
  if (registered) return;
  registered = true;
  registerJobHandler(
    "webhook",
    (payload: { eventId: string }, tx) => processEvent(tx, payload.eventId),
    (payloads: { eventId: string }[], tx) => processEvents(tx, payloads.map((p) => p.eventId)),
  );
  registerJobHandler("orders.approve", async (payload: { orderId: string }, tx) => {
    await approveIfStillPending(tx, payload.orderId);
  });
  registerJobHandler("shop.erase", async (payload: { shopDomain: string }, tx) => {
    await eraseShop(tx, payload.shopDomain, { force: false });
  });
}
