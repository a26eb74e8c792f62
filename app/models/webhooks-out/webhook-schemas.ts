import { z } from "zod";
import { wireSchema } from "../../lib/wire-case";
import { referralSchema } from "../referrals/referral-schema";
import { EVENT_TYPES } from "../events/event-types";
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from "./webhook-endpoint-form";

// What the public sees of outgoing webhooks, as zod schemas: the bodies
// posted to endpoints (one per event type) and the REST API's endpoint
// object. The objects are written in the domain's camelCase, which types the
// payload builder; the bodies published in the OpenAPI document are their
// wire case (wireSchema: snake_case, as the builder's toWireCase sends them),
// so the document and the deliveries agree.

const isoDateTime = () => z.string().describe("ISO 8601 date-time (UTC)");

export const webhookAffiliateSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.string(),
  referralCode: z.string(),
  campaignId: z.string(),
  parentId: z.string().nullable(),
  website: z.string().nullable(),
  createdAt: isoDateTime(),
});

export const webhookSaleSchema = z.object({
  id: z.string(),
  shopifyGid: z.string(),
  name: z.string(),
  currency: z.string(),
  subtotal: z.number().int().describe("Minor units"),
  total: z.number().int().describe("Minor units"),
  status: z.string(),
  affiliateId: z.string().nullable(),
  attributionSource: z.string(),
  refundedAmount: z.number().int(),
  isNewCustomer: z.boolean(),
  createdAt: isoDateTime(),
});

export const webhookCommissionSchema = z.object({
  id: z.string(),
  orderId: z.string().nullable().describe("null for a bonus line, which no order earned"),
  affiliateId: z.string(),
  level: z.number().int(),
  kind: z.string(),
  amount: z.number().int().describe("Minor units"),
  currency: z.string(),
  status: z.string(),
  explanation: z.string(),
  payoutId: z.string().nullable(),
  createdAt: isoDateTime(),
});

export const webhookPayoutSchema = z.object({
  id: z.string(),
  affiliateId: z.string(),
  amount: z.number().int().describe("Minor units"),
  currency: z.string(),
  status: z.string(),
  method: z.string(),
  reference: z.string().nullable(),
  failureReason: z.string().nullable(),
  sentAt: isoDateTime().nullable(),
  paidAt: isoDateTime().nullable(),
  createdAt: isoDateTime(),
});

/** The objects `data` may carry beside the event's own fields (null when the object is gone). */
const objectFields = {
  affiliate: webhookAffiliateSchema.nullable().optional(),
  sale: webhookSaleSchema.nullable().optional(),
  commission: webhookCommissionSchema.nullable().optional(),
  payout: webhookPayoutSchema.nullable().optional(),
  // The REST API's Referral object as is: one mapping, and a receiver
  // reuses its API parser.
  referral: referralSchema
    .nullable()
    .optional()
    .describe("The referral as GET /api/v1/referrals/{id} returns it (friend_email masked, reason in English)"),
};

function bodySchema<T extends string>(type: T, data: z.ZodTypeAny) {
  return z.object({
    type: z.literal(type),
    timestamp: isoDateTime().describe("When the event happened"),
    data,
  });
}

/** The body posted for each event type (Standard Webhooks: {type, timestamp, data}); `data` in the wire case. */
export const WEBHOOK_BODY_SCHEMAS = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [type, bodySchema(type, wireSchema(EVENT_TYPES[type].extend(objectFields)))]),
) as unknown as Record<(typeof WEBHOOK_EVENT_TYPES)[number], z.ZodTypeAny>;

export const webhookTestBodySchema = bodySchema(
  TEST_EVENT_TYPE,
  wireSchema(z.object({ endpointId: z.string(), message: z.string() })),
);

export const webhookEndpointOutSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabled_reason: z.enum(["failing"]).nullable().describe("Why the app turned the endpoint off"),
  created_at: isoDateTime(),
});

export const webhookEndpointCreatedSchema = webhookEndpointOutSchema.extend({
  secret: z.string().describe("The signing secret (whsec_...): returned only here, once"),
});
