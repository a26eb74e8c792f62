import { getDb } from "../../db.server";
import { enqueueJob, notifyJobsEnqueued } from "../jobs/job-queue.server";

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
  const shop = await db.shop.findUnique({ where: { domain: hook.shopDomain }, select: { id: true } });
  try {
    await db.$transaction(async (tx) => {
      const event = await tx.webhookEvent.create({
        data: {
          shopId: shop?.id ?? null,
          shopDomain: hook.shopDomain,
          topic: hook.topic,
          webhookId: hook.webhookId,
          apiVersion: hook.apiVersion,
          payload: hook.rawBody,
        },
        select: { id: true },
      });
      await enqueueJob(tx, "webhook", { eventId: event.id }, { uniqueKey: `webhook:${hook.webhookId}` });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
  notifyJobsEnqueued();
  return "stored";
}
