import { randomUUID } from "node:crypto";
import type { BulkSql } from "../../db/bulk-sql.server";
import type { Tx } from "../../db/transaction";
import { onEveryEvent } from "../events/event-subscriber";
import type { DomainEvent } from "../events/event-types";
import { jobRow } from "../jobs/enqueue.server";
import { deliveryJobKey, parseEventTypes } from "./endpoints.server";
import { buildWebhookBody } from "./webhook-payload.server";

/**
 * The outgoing webhooks' subscriber of event.dispatch: one delivery row per
 * event and enabled endpoint that wants its type, and a job for its first
 * attempt. The endpoints and the body are read first; the write skips the
 * deliveries that exist, so a replayed dispatch adds nothing (the row is
 * unique per event and endpoint, and so is the job's key).
 */
async function queueWebhookDeliveries(reader: Tx, event: DomainEvent) {
  const endpoints = await reader.webhookEndpoint.findMany({
    where: { shopId: event.shopId, enabled: true },
    select: { id: true, eventTypes: true },
  });
  const wanting = endpoints.filter((e) => (parseEventTypes(e.eventTypes) as string[]).includes(event.type));
  if (wanting.length === 0) return undefined;
  const payload = JSON.stringify(await buildWebhookBody(reader, event));
  return async (writer: BulkSql) => {
    const now = new Date();
    // A delivery is unique per event and endpoint: those a replay (or a
    // concurrent dispatch) wrote already are skipped, and only new ones get a job.
    const ids = await writer.insertNew(
      "WebhookDelivery",
      wanting.map((endpoint) => ({
        id: randomUUID(),
        shopId: event.shopId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        payload,
        status: "pending",
        attempts: 0,
        runStart: 0,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })),
      "id",
    );
    await writer.insertRows(
      "Job",
      ids.map((deliveryId) =>
        jobRow("webhooks.deliver", { deliveryId, attempt: 1 }, { now, uniqueKey: deliveryJobKey(deliveryId, 1) }),
      ),
      { onConflict: "ignore" },
    );
  };
}

/** Event subscriber: every event type may be published to the endpoints that chose it. */
export const webhookSubscriber = onEveryEvent(queueWebhookDeliveries);
