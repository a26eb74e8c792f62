import type { Tx } from "../../db/transaction";
import type { DomainEventRecord } from "../events/event-types";
import { enqueueJob } from "../jobs/enqueue.server";
import { deliveryJobKey, parseEventTypes } from "./endpoints.server";
import { buildWebhookBody } from "./webhook-payload.server";

/**
 * The outgoing webhooks' subscriber of event.dispatch: one delivery row per
 * event and enabled endpoint that wants its type, and a job for its first
 * attempt. A replayed dispatch finds the rows and adds nothing (the row is
 * unique per event and endpoint, and so is the job's key).
 */
export async function queueWebhookDeliveries(tx: Tx, event: DomainEventRecord) {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { shopId: event.shopId, enabled: true },
    select: { id: true, eventTypes: true },
  });
  const wanting = endpoints.filter((e) => (parseEventTypes(e.eventTypes) as string[]).includes(event.type));
  if (wanting.length === 0) return;
  const existing = await tx.webhookDelivery.findMany({
    where: { eventId: event.id, endpointId: { in: wanting.map((e) => e.id) } },
    select: { endpointId: true },
  });
  const done = new Set(existing.map((d) => d.endpointId));
  const todo = wanting.filter((e) => !done.has(e.id));
  if (todo.length === 0) return;
  const payload = JSON.stringify(await buildWebhookBody(tx, event));
  const now = new Date();
  for (const endpoint of todo) {
    const delivery = await tx.webhookDelivery.create({
      data: {
        shopId: event.shopId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        payload,
        nextAttemptAt: now,
      },
      select: { id: true },
    });
    await enqueueJob(
      tx,
      "webhooks.deliver",
      { deliveryId: delivery.id, attempt: 1 },
      { uniqueKey: deliveryJobKey(delivery.id, 1) },
    );
  }
}
