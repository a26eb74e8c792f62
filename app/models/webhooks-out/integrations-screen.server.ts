import type { Db } from "../../db.server";
import { AppError } from "../../lib/errors";
import { msg } from "../../i18n/messages";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  parseEventTypes,
  redeliverWebhook,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhookEndpointEnabled,
} from "./endpoints.server";
import type { integrationsActionSchema } from "./webhook-endpoint-form";
import type { z } from "zod";

// What Settings > Integrations shows and does: the endpoint list, one
// endpoint with its delivery log (a page at a time), and the screen's actions.

export const DELIVERIES_PER_PAGE = 20;

export async function integrationsOverview(db: Db, timeZone: string) {
  const rows = await db.webhookEndpoint.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { deliveries: { orderBy: { createdAt: "desc" }, take: 1, select: { status: true, createdAt: true } } },
  });
  return {
    timeZone,
    endpoints: rows.map((row) => ({
      id: row.id,
      url: row.url,
      description: row.description,
      eventTypes: parseEventTypes(row.eventTypes),
      enabled: row.enabled,
      disabledReason: row.disabledReason,
      createdAt: row.createdAt.toISOString(),
      lastDelivery: row.deliveries[0]
        ? { status: row.deliveries[0].status, at: row.deliveries[0].createdAt.toISOString() }
        : null,
    })),
  };
}

export async function endpointDetail(db: Db, id: string, page: number, timeZone: string) {
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id } });
  if (!endpoint) throw new AppError("not_found", msg("Settings.Integrations:errors.notFound"));
  const [total, deliveries] = await Promise.all([
    db.webhookDelivery.count({ where: { endpointId: id } }),
    db.webhookDelivery.findMany({
      where: { endpointId: id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * DELIVERIES_PER_PAGE,
      take: DELIVERIES_PER_PAGE,
      include: { attemptsLog: { orderBy: { number: "asc" } } },
    }),
  ]);
  return {
    timeZone,
    page,
    hasNext: page * DELIVERIES_PER_PAGE < total,
    total,
    endpoint: {
      id: endpoint.id,
      url: endpoint.url,
      description: endpoint.description,
      eventTypes: parseEventTypes(endpoint.eventTypes),
      enabled: endpoint.enabled,
      disabledReason: endpoint.disabledReason,
      failingSince: endpoint.failingSince?.toISOString() ?? null,
      createdAt: endpoint.createdAt.toISOString(),
    },
    deliveries: deliveries.map((d) => ({
      id: d.id,
      messageId: `msg_${d.id}`,
      eventType: d.eventType,
      status: d.status,
      attempts: d.attempts,
      lastStatusCode: d.lastStatusCode,
      nextAttemptAt: d.status === "pending" ? (d.nextAttemptAt?.toISOString() ?? null) : null,
      createdAt: d.createdAt.toISOString(),
      payload: d.payload,
      attemptsLog: d.attemptsLog.map((a) => ({
        number: a.number,
        startedAt: a.startedAt.toISOString(),
        durationMs: a.durationMs,
        statusCode: a.statusCode,
        ok: a.ok,
        responseExcerpt: a.responseExcerpt,
        error: a.error,
      })),
    })),
  };
}

export type IntegrationsAction = z.output<typeof integrationsActionSchema>;

/** One action of the screen; a new secret comes back once, to be shown once. */
export async function runIntegrationsAction(db: Db, shopId: string, action: IntegrationsAction) {
  switch (action.intent) {
    case "create": {
      const { endpoint, secret } = await createWebhookEndpoint(db, shopId, action);
      return { intent: action.intent, endpointId: endpoint.id, secret };
    }
    case "delete":
      await deleteWebhookEndpoint(db, action.id);
      return { intent: action.intent, endpointId: action.id };
    case "enable":
    case "disable":
      await setWebhookEndpointEnabled(db, action.id, action.intent === "enable");
      return { intent: action.intent, endpointId: action.id };
    case "rotate":
      return { intent: action.intent, endpointId: action.id, secret: await rotateWebhookSecret(db, action.id) };
    case "test":
      await sendTestEvent(db, shopId, action.id);
      return { intent: action.intent, endpointId: action.id };
    case "redeliver":
      await redeliverWebhook(db, action.id, action.deliveryId);
      return { intent: action.intent, endpointId: action.id };
  }
}
