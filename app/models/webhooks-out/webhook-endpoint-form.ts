import { z } from "zod";
import { msg } from "../../i18n/messages";
import type { EventType } from "../events/event-types";

// The event types a merchant can subscribe an endpoint to, and the one
// schema of an endpoint's fields: the Integrations form and the REST API
// (POST /api/v1/webhook-endpoints) both parse with it.

export const WEBHOOK_EVENT_TYPES = [
  "affiliate.created",
  "affiliate.approved",
  "sale.credited",
  "commission.created",
  "commission.updated",
  "payout.created",
  "payout.paid",
  "payout.failed",
  "referral.created",
] as const satisfies readonly EventType[];

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the event "send test event" posts. */
export const TEST_EVENT_TYPE = "webhook.test";

export const MAX_URL_LENGTH = 2000;

export const webhookEndpointSchema = z.object({
  url: z
    .string({ required_error: msg("Settings.Integrations:validation.url") })
    .trim()
    .max(MAX_URL_LENGTH, msg("Settings.Integrations:validation.url"))
    .url(msg("Settings.Integrations:validation.url"))
    .refine((value) => /^https?:\/\//i.test(value), msg("Settings.Integrations:validation.url"))
    .describe("Where the events are posted (http or https)"),
  description: z
    .string()
    .trim()
    .max(200, msg("Global:validation.textMax", { max: 200 }))
    .default("")
    .describe("A note for the merchant"),
  event_types: z
    .array(z.enum(WEBHOOK_EVENT_TYPES), { required_error: msg("Settings.Integrations:validation.eventTypes") })
    .min(1, msg("Settings.Integrations:validation.eventTypes"))
    .transform((types) => Array.from(new Set(types)))
    .describe("The event types the endpoint receives"),
});

export type WebhookEndpointInput = z.output<typeof webhookEndpointSchema>;

/** The Integrations screen's actions, one schema each, told apart by `intent`. */
export const integrationsActionSchema = z.discriminatedUnion("intent", [
  webhookEndpointSchema.extend({ intent: z.literal("create") }),
  z.object({ intent: z.literal("delete"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("enable"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("disable"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("rotate"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("test"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("redeliver"), id: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) }),
]);
