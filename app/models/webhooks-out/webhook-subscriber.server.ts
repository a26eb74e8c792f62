import type { Tx } from "../../db/transaction";
import { onEveryEvent } from "../events/event-subscriber";
import type { DomainEvent } from "../events/event-types";
import { enqueueJob } from "../jobs/enqueue.server";
import { deliveryJobKey, parseEventTypes } from "./endpoints.server";
import { buildWebhookBody } from "./webhook-payload.server";

/**
 * The outgoing webhooks' subscriber of event.dispatch: one delivery row per
 * event and enabled endpoint that wants its type, and a job for its first
 * attempt. The endpoints and the body are read first; the write checks
 * again which deliveries exist, so a replayed dispatch adds nothing (the row
 * is unique per event and endpoint, and so is the job's key).
 */
async function queueWebhookDeliveries(reader: Tx, event: DomainEvent) {
  const endpoints = await reader.webhookEndpoint.findMany({
    where: { shopId: event.shopId, enabled: true },
    select: { id: true, eventTypes: true },
  });
  const wanting = endpoints.filter((e) => (parseEventTypes(e.eventTypes) as string[]).includes(event.type));
  if (wanting.length === 0) return undefined;
  const payload = JSON.stringify(await buildWebhookBody(reader, event));
  return async (tx: Tx) => {
    const existing = await tx.webhookDelivery.findMany({
      where: { eventId: event.id, endpointId: { in: wanting.map((e) => e.id) } },
      select: { endpointId: true },
    });
    const done = new Set(existing.map((d) => d.endpointId));
    const now = new Date();
    for (const endpoint of wanting.filter((e) => !done.has(e.id))) {
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
  };
}

/** Event subscriber: every event type may be published to the endpoints that chose it. */
export const webhookSubscriber = onEveryEvent(queueWebhookDeliveries);
