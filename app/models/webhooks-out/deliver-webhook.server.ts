import { Webhook } from "standardwebhooks";
import type { Db } from "../../db.server";
import { enqueueJob } from "../jobs/enqueue.server";
import { deliveryJobKey, privateTargetsAllowed } from "./endpoints.server";
import { observeWebhookDelivery } from "../ops/metrics.server";
import { postWebhook, type PostResult } from "./post-webhook.server";
import { nextRetryDelaySeconds, shouldDisableEndpoint } from "./retry-schedule";

// The "webhooks.deliver" job, an effect job: one HTTP attempt of one
// delivery, signed per Standard Webhooks. The attempt, the delivery's new
// state and the job of the next retry are written in one transaction, so a
// crash after the POST repeats at most that POST (the job runs again and
// finds the attempt not recorded); a job for an attempt already made is
// stale and does nothing.

/** webhook-id: stable for an event and endpoint, the same on every retry and redelivery. */
export function webhookMessageId(deliveryId: string) {
  return `msg_${deliveryId}`;
}

export function signedHeaders(secret: string, messageId: string, body: string, at: Date) {
  const signature = new Webhook(secret).sign(messageId, at, body);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

export async function deliverWebhook(payload: { deliveryId: string; attempt: number }, db: Db) {
  const delivery = await db.webhookDelivery.findUnique({
    where: { id: payload.deliveryId },
    include: { endpoint: true },
  });
  if (!delivery || delivery.status !== "pending" || delivery.attempts !== payload.attempt - 1) return;
  const { endpoint } = delivery;
  const now = new Date();
  const isTest = delivery.eventId === null;
  if (!endpoint.enabled && !isTest && delivery.runStart === 0) {
    // Turned off after the event was queued: nothing is sent; a manual
    // redelivery (runStart > 0) still goes out.
    await db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "failed", nextAttemptAt: null },
    });
    return;
  }
  const headers = signedHeaders(endpoint.secret, webhookMessageId(delivery.id), delivery.payload, now);
  const result: PostResult = await postWebhook(endpoint.url, headers, delivery.payload, {
    allowPrivate: await privateTargetsAllowed(db, delivery.shopId),
  });
  observeWebhookDelivery(result.ok);
  const finishedAt = new Date();
  const delay = result.ok ? null : nextRetryDelaySeconds(payload.attempt - delivery.runStart);
  const retryAt = delay === null ? null : new Date(finishedAt.getTime() + delay * 1000);
  await db.$transaction(async (tx) => {
    // The delivery's new state in the same statement that claims the
    // attempt: if another run recorded this attempt meanwhile (a lease ran
    // out), nothing changes and theirs stands.
    const claimed = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, attempts: delivery.attempts },
      data: {
        attempts: payload.attempt,
        lastStatusCode: result.statusCode,
        status: result.ok ? "delivered" : retryAt ? "pending" : "failed",
        deliveredAt: result.ok ? finishedAt : undefined,
        nextAttemptAt: retryAt,
      },
    });
    if (claimed.count === 0) return;
    await tx.webhookAttempt.create({
      data: {
        deliveryId: delivery.id,
        number: payload.attempt,
        startedAt: now,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        ok: result.ok,
        responseExcerpt: result.excerpt,
        error: result.error,
      },
    });
    if (result.ok) {
      if (endpoint.failingSince)
        await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } });
      return;
    }
    if (retryAt)
      await enqueueJob(
        tx,
        "webhooks.deliver",
        { deliveryId: delivery.id, attempt: payload.attempt + 1 },
        { runAt: retryAt, uniqueKey: deliveryJobKey(delivery.id, payload.attempt + 1) },
      );
    // Test events say nothing about the endpoint's health.
    if (isTest) return;
    const failingSince = endpoint.failingSince ?? finishedAt;
    if (!endpoint.failingSince)
      await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, failingSince: null }, data: { failingSince } });
    if (endpoint.enabled && shouldDisableEndpoint(failingSince, finishedAt)) {
      await tx.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: { enabled: false, disabledReason: "failing" },
      });
      console.warn(`[webhooks] endpoint ${endpoint.id} turned off: its deliveries have failed for 5 days`);
    }
  });
}
