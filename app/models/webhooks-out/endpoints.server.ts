import { randomBytes } from "node:crypto";
import { allowsPrivateWebhookTargets, getConfig } from "../../config.server";
import type { Db } from "../../db.server";
import { AppError } from "../../lib/errors";
import { msg } from "../../i18n/messages";
import { enqueueJob } from "../jobs/enqueue.server";
import { checkHostAddresses } from "./post-webhook.server";
import {
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointInput,
  type WebhookEventType,
} from "./webhook-endpoint-form";
import { toWireCase } from "../../lib/wire-case";

// The merchant's outgoing webhook endpoints: registration (URL checked
// against private addresses), the secret shown once, rotation, on/off, test
// events and manual redelivery. `db` is the shop's own client (the door's).

/** A new Standard Webhooks secret: "whsec_" and 32 random bytes in base64. */
export function newWebhookSecret() {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function parseEventTypes(json: string): WebhookEventType[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? WEBHOOK_EVENT_TYPES.filter((t) => list.includes(t)) : [];
  } catch {
    return [];
  }
}

/**
 * Whether the shop may post to private addresses: only the demo shop (or
 * everyone under WEBHOOKS_ALLOW_PRIVATE=1, which production refuses). The
 * shop's row is read only in the demo, where the answer can depend on it.
 */
export async function privateTargetsAllowed(db: Db, shopId: string) {
  const config = getConfig();
  if (config.WEBHOOKS_ALLOW_PRIVATE) return true;
  if (!config.demoShop) return false;
  const shop = await db.shop.findUnique({ where: { id: shopId }, select: { domain: true } });
  return allowsPrivateWebhookTargets(shop?.domain);
}

/** Refuses a URL the app may not post to (422 with the reason in the url field). */
export async function assertDeliverableUrl(url: string, allowPrivate: boolean) {
  const reason = await checkHostAddresses(new URL(url), allowPrivate);
  if (reason)
    throw new AppError("validation_failed", msg("Settings.Integrations:validation.refused", { reason }), {
      fields: { url: msg("Settings.Integrations:validation.refused", { reason }) },
    });
}

export const MAX_ENDPOINTS_PER_SHOP = 20;

export async function createWebhookEndpoint(db: Db, shopId: string, input: WebhookEndpointInput) {
  await assertDeliverableUrl(input.url, await privateTargetsAllowed(db, shopId));
  if ((await db.webhookEndpoint.count({ where: { shopId } })) >= MAX_ENDPOINTS_PER_SHOP)
    throw new AppError("conflict", msg("Settings.Integrations:validation.tooMany", { max: MAX_ENDPOINTS_PER_SHOP }));
  const secret = newWebhookSecret();
  const row = await db.webhookEndpoint.create({
    data: {
      shopId,
      url: input.url,
      description: input.description,
      eventTypes: JSON.stringify(input.event_types),
      secret,
    },
  });
  return { endpoint: row, secret };
}

async function findEndpoint(db: Db, id: string) {
  const row = await db.webhookEndpoint.findUnique({ where: { id } });
  if (!row) throw new AppError("not_found", msg("Settings.Integrations:errors.notFound"));
  return row;
}

export async function deleteWebhookEndpoint(db: Db, id: string) {
  await findEndpoint(db, id);
  await db.webhookEndpoint.delete({ where: { id } });
}

export async function setWebhookEndpointEnabled(db: Db, id: string, enabled: boolean) {
  await findEndpoint(db, id);
  return db.webhookEndpoint.update({
    where: { id },
    // Turned back on: the failure streak starts over.
    data: enabled ? { enabled, disabledReason: null, failingSince: null } : { enabled, disabledReason: null },
  });
}

/** A new secret; the old one stops signing at once (returned to be shown once). */
export async function rotateWebhookSecret(db: Db, id: string) {
  await findEndpoint(db, id);
  const secret = newWebhookSecret();
  await db.webhookEndpoint.update({ where: { id }, data: { secret } });
  return secret;
}

/** Queues a "webhook.test" message to one endpoint (enabled or not: the merchant asked for it). */
export async function sendTestEvent(db: Db, shopId: string, id: string) {
  const endpoint = await findEndpoint(db, id);
  const now = new Date();
  return db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.create({
      data: {
        shopId,
        endpointId: endpoint.id,
        eventId: null,
        eventType: TEST_EVENT_TYPE,
        payload: JSON.stringify({
          type: TEST_EVENT_TYPE,
          timestamp: now.toISOString(),
          data: toWireCase({ endpointId: endpoint.id, message: "A test event sent from Settings > Integrations." }),
        }),
        nextAttemptAt: now,
      },
    });
    await enqueueJob(
      tx,
      "webhooks.deliver",
      { deliveryId: delivery.id, attempt: 1 },
      { uniqueKey: deliveryJobKey(delivery.id, 1) },
    );
    return delivery;
  });
}

export function deliveryJobKey(deliveryId: string, attempt: number) {
  return `webhooks.deliver:${deliveryId}:${attempt}`;
}

/**
 * Sends a delivery again now, with the same webhook-id and body, and a fresh
 * run of retries; a delivery still being retried is moved to now.
 */
export async function redeliverWebhook(db: Db, endpointId: string, deliveryId: string) {
  await findEndpoint(db, endpointId);
  return db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId } });
    if (!delivery) throw new AppError("not_found", msg("Settings.Integrations:errors.notFound"));
    const attempt = delivery.attempts + 1;
    const now = new Date();
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "pending", runStart: delivery.attempts, nextAttemptAt: now },
    });
    const job = await enqueueJob(
      tx,
      "webhooks.deliver",
      { deliveryId: delivery.id, attempt },
      { uniqueKey: deliveryJobKey(delivery.id, attempt) },
    );
    // The job of the next retry may already wait for later: run it now.
    if (job.status === "queued" && job.runAt > now)
      await tx.job.update({ where: { id: job.id }, data: { runAt: now } });
    return delivery;
  });
}
