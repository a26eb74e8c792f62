import type { Db } from "../../db.server";
import { createWebhookEndpoint, deleteWebhookEndpoint, parseEventTypes } from "../webhooks-out/endpoints.server";
import type { WebhookEndpointInput } from "../webhooks-out/webhook-endpoint-form";
import type { webhookEndpointOutSchema } from "../webhooks-out/webhook-schemas";
import type { z } from "zod";

// /api/v1/webhook-endpoints: the same endpoints as Settings > Integrations.

type EndpointRow = {
  id: string;
  url: string;
  description: string;
  eventTypes: string;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
};

function serialize(row: EndpointRow): z.infer<typeof webhookEndpointOutSchema> {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: parseEventTypes(row.eventTypes),
    enabled: row.enabled,
    disabled_reason: row.disabledReason === "failing" ? "failing" : null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listWebhookEndpointsApi(db: Db) {
  const rows = await db.webhookEndpoint.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return { data: rows.map(serialize), next_cursor: null };
}

export async function createWebhookEndpointApi(db: Db, shopId: string, input: WebhookEndpointInput) {
  const { endpoint, secret } = await createWebhookEndpoint(db, shopId, input);
  return { ...serialize(endpoint), secret };
}

export async function deleteWebhookEndpointApi(db: Db, id: string) {
  await deleteWebhookEndpoint(db, id);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
