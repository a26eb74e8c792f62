import { randomUUID } from "node:crypto";
import { getDb } from "../../db.server";
import { notifyJobsEnqueued } from "../jobs/job-queue.server";

export interface IncomingWebhook {
  shopDomain: string;
  topic: string;
  webhookId: string;
  apiVersion: string | null;
  rawBody: string;
}

function isUniqueViolation(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}

/**
 * Stores a verified webhook and its processing job in one transaction, so the
 * request can be answered as soon as the event is durable. The same webhook
 * id delivered again is recognised and stores nothing.
 */
export async function ingestWebhook(hook: IncomingWebhook): Promise<"stored" | "duplicate"> {
  const db = getDb();
  const eventId = randomUUID();
  try {
    // Two inserts in one (non-interactive) transaction: the cheapest durable
    // write. The worker fills in the shop when it processes the event.
    await db.$transaction([
      db.webhookEvent.create({
        data: {
          id: eventId,
          shopDomain: hook.shopDomain,
          topic: hook.topic,
          webhookId: hook.webhookId,
          apiVersion: hook.apiVersion,
          payload: hook.rawBody,
        },
        select: { id: true },
      }),
      db.job.create({
        data: {
          type: "webhook",
          payload: JSON.stringify({ eventId, topic: hook.topic }),
          uniqueKey: `webhook:${hook.webhookId}`,
        },
        select: { id: true },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
  notifyJobsEnqueued();
  return "stored";
}
