import {
  extendZodWithOpenApi,
  OpenAPIRegistry,
  OpenApiGeneratorV3,
  type RouteConfig,
} from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { getConfig } from "../../config.server";
import {
  affiliateCreateSchema,
  affiliateListQuerySchema,
  affiliateSchema,
  affiliateUpdateSchema,
  campaignCreateSchema,
  campaignListQuerySchema,
  campaignSchema,
  campaignUpdateSchema,
  clickListQuerySchema,
  clickSchema,
  decisionParamsSchema,
  errorResponseSchema,
  idParamsSchema,
  pageSchema,
  saleListQuerySchema,
  saleSchema,
  shopSchema,
} from "./schemas";
import { webhookEndpointSchema } from "../webhooks-out/webhook-endpoint-form";
import {
  WEBHOOK_BODY_SCHEMAS,
  webhookEndpointCreatedSchema,
  webhookEndpointOutSchema,
  webhookTestBodySchema,
} from "../webhooks-out/webhook-schemas";
import { paypalConnectionSchema, paypalConnectionViewSchema } from "../paypal/paypal-connection-schema";
import { referralProgramSchema } from "../referrals/program-settings";
import {
  payoutBatchResultSchema,
  payoutCreateSchema,
  payoutListQuerySchema,
  payoutMarkPaidSchema,
  payoutSchema,
} from "./payout-schemas";

// GET /api/v1/openapi.json: the OpenAPI 3 document of /api/v1, generated
// from the zod schemas the routes validate with. Built once per process.

extendZodWithOpenApi(z);

const json = (schema: z.ZodTypeAny, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

function errorResponses(error: z.ZodTypeAny) {
  return (...statuses: number[]) => {
    const text: Record<number, string> = {
      400: "Malformed request (e.g. invalid JSON)",
      401: "Missing or invalid API key",
      404: "Not found (or another shop's id)",
      403: "Not allowed: the shop's pricing plan does not include the REST API or the feature (the body's upgrade names the plan that does), or e.g. a payment method the shop has not set up",
      409: "Conflict (taken value, or a sale that is not pending)",
      422: "Validation failed; error.fields names each field (messages are in English)",
    };
    // Every keyed call may answer 403 when the shop's plan lacks the API (docs/decisions/029).
    return Object.fromEntries([...new Set([401, 403, ...statuses])].map((s) => [s, json(error, text[s] ?? "Error")]));
  };
}

function build() {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A per-shop API key: Authorization: Bearer <key>",
  });
  const security = [{ [bearer.name]: [] }];
  const shop = registry.register("Shop", shopSchema);
  const payout = registry.register("Payout", payoutSchema);
  const campaign = registry.register("Campaign", campaignSchema);
  const affiliate = registry.register("Affiliate", affiliateSchema);
  const sale = registry.register("Sale", saleSchema);
  const click = registry.register("Click", clickSchema);
  const webhookEndpoint = registry.register("WebhookEndpoint", webhookEndpointOutSchema);
  const webhookEndpointCreated = registry.register("WebhookEndpointCreated", webhookEndpointCreatedSchema);
  // The bodies posted to webhook endpoints, one schema per event type
  // (OpenAPI 3.0 has no "webhooks" section; they are listed as components).
  for (const [type, schema] of Object.entries(WEBHOOK_BODY_SCHEMAS))
    registry.register(
      `WebhookEvent_${type.replace(".", "_")}`,
      schema.openapi({ description: `Body of a ${type} webhook` }),
    );
  registry.register(
    "WebhookEvent_webhook_test",
    webhookTestBodySchema.openapi({ description: "Body of a test webhook" }),
  );
  const paypalConnection = registry.register("PaypalConnection", paypalConnectionViewSchema);
  const referralProgram = registry.register(
    "ReferralProgram",
    referralProgramSchema.openapi({
      description:
        "The refer-a-friend program. Percentages are basis points (1000 = 10 %), amounts minor units of the shop currency; " +
        "empty widget texts mean the translated defaults.",
    }),
  );
  const errors = errorResponses(registry.register("Error", errorResponseSchema));
  const body = (schema: z.ZodTypeAny) => ({ body: { required: true, content: { "application/json": { schema } } } });

  const paths: RouteConfig[] = [
    {
      method: "get",
      path: "/api/v1/shop",
      summary: "The API key's shop",
      responses: { 200: json(shop, "The shop"), ...errors() },
    },
    {
      method: "get",
      path: "/api/v1/paypal/connection",
      summary: "The shop's PayPal connection (the client secret is never returned)",
      responses: { 200: json(paypalConnection, "The connection; connected is false when there is none"), ...errors() },
    },
    {
      method: "put",
      path: "/api/v1/paypal/connection",
      summary: "Connect PayPal: PayPal verifies the credentials (OAuth token) before they are stored, encrypted",
      request: body(paypalConnectionSchema),
      responses: {
        200: json(paypalConnection, "The verified connection"),
        ...errors(400, 422),
        503: json(errorResponseSchema, "PayPal could not be reached; nothing was changed"),
      },
    },
    {
      method: "get",
      path: "/api/v1/referral-program",
      summary: "The refer-a-friend program settings",
      responses: { 200: json(referralProgram, "The program"), ...errors(403) },
    },
    {
      method: "put",
      path: "/api/v1/referral-program",
      summary:
        "Change the refer-a-friend program: the keys sent replace the stored ones (nested objects key by key); " +
        "the result must be a valid program. Switching it off withdraws every advocate's friend codes",
      request: body(referralProgramSchema),
      responses: { 200: json(referralProgram, "The program as stored"), ...errors(400, 403, 422) },
    },
    {
      method: "get",
      path: "/api/v1/campaigns",
      summary: "List campaigns",
      request: { query: campaignListQuerySchema },
      responses: { 200: json(pageSchema(campaign), "A page of campaigns"), ...errors(422) },
    },
    {
      method: "post",
      path: "/api/v1/campaigns",
      summary: "Create a campaign",
      request: body(campaignCreateSchema),
      responses: { 201: json(campaign, "The new campaign"), ...errors(400, 422) },
    },
    {
      method: "get",
      path: "/api/v1/campaigns/{id}",
      summary: "Get a campaign",
      request: { params: idParamsSchema },
      responses: { 200: json(campaign, "The campaign"), ...errors(404) },
    },
    {
      method: "patch",
      path: "/api/v1/campaigns/{id}",
      summary: "Update a campaign (levels and rules are replaced when given)",
      request: { params: idParamsSchema, ...body(campaignUpdateSchema) },
      responses: { 200: json(campaign, "The updated campaign"), ...errors(400, 404, 422) },
    },
    {
      method: "get",
      path: "/api/v1/affiliates",
      summary: "List affiliates",
      request: { query: affiliateListQuerySchema },
      responses: { 200: json(pageSchema(affiliate), "A page of affiliates"), ...errors(422) },
    },
    {
      method: "post",
      path: "/api/v1/affiliates",
      summary: "Create an affiliate",
      request: body(affiliateCreateSchema),
      responses: { 201: json(affiliate, "The new affiliate"), ...errors(400, 409, 422) },
    },
    {
      method: "get",
      path: "/api/v1/affiliates/{id}",
      summary: "Get an affiliate",
      request: { params: idParamsSchema },
      responses: { 200: json(affiliate, "The affiliate"), ...errors(404) },
    },
    {
      method: "patch",
      path: "/api/v1/affiliates/{id}",
      summary: "Update an affiliate (coupon codes are replaced when given)",
      request: { params: idParamsSchema, ...body(affiliateUpdateSchema) },
      responses: { 200: json(affiliate, "The updated affiliate"), ...errors(400, 404, 409, 422) },
    },
    {
      method: "get",
      path: "/api/v1/sales",
      summary: "List sales (orders, credited or not); since/until filter placed_at",
      request: { query: saleListQuerySchema },
      responses: { 200: json(pageSchema(sale), "A page of sales"), ...errors(422) },
    },
    {
      method: "get",
      path: "/api/v1/sales/{id}",
      summary: "Get a sale with its attribution and commissions",
      request: { params: idParamsSchema },
      responses: { 200: json(sale, "The sale"), ...errors(404) },
    },
    {
      method: "post",
      path: "/api/v1/sales/{id}/{decision}",
      summary: "Approve or deny a pending sale and its pending commissions",
      request: { params: decisionParamsSchema },
      responses: { 200: json(sale, "The updated sale"), ...errors(404, 409) },
    },
    {
      method: "get",
      path: "/api/v1/payouts",
      summary: "List payouts (newest first); filter by status and affiliate",
      request: { query: payoutListQuerySchema },
      responses: { 200: json(pageSchema(payout), "A page of payouts"), ...errors(422) },
    },
    {
      method: "post",
      path: "/api/v1/payouts",
      summary:
        "Gather approved commissions into pending payouts and send those of the given affiliates (or every eligible one) in one batch by method",
      request: body(payoutCreateSchema),
      responses: {
        201: json(payoutBatchResultSchema, "The batch and its payouts (batch_id null when nothing was due)"),
        ...errors(400, 403, 422),
      },
    },
    {
      method: "get",
      path: "/api/v1/payouts/{id}",
      summary: "Get a payout",
      request: { params: idParamsSchema },
      responses: { 200: json(payout, "The payout"), ...errors(404) },
    },
    {
      method: "post",
      path: "/api/v1/payouts/{id}/mark-paid",
      summary: "Record a payout as paid (by hand): its commission lines become paid; repeating it changes nothing",
      request: { params: idParamsSchema, ...body(payoutMarkPaidSchema) },
      responses: { 200: json(payout, "The paid payout"), ...errors(400, 404, 409, 422) },
    },
    {
      method: "get",
      path: "/api/v1/clicks",
      summary: "List link clicks; since/until filter created_at",
      request: { query: clickListQuerySchema },
      responses: { 200: json(pageSchema(click), "A page of clicks"), ...errors(422) },
    },
    {
      method: "get",
      path: "/api/v1/webhook-endpoints",
      summary: "List outgoing webhook endpoints (secrets are never listed)",
      responses: { 200: json(pageSchema(webhookEndpoint), "Every endpoint of the shop (one page)"), ...errors() },
    },
    {
      method: "post",
      path: "/api/v1/webhook-endpoints",
      summary:
        "Register an outgoing webhook endpoint. Deliveries are signed per Standard Webhooks (webhook-id, " +
        "webhook-timestamp, webhook-signature) with the secret returned here once; bodies are the WebhookEvent_* schemas. " +
        "Private, loopback and link-local addresses are refused.",
      request: body(webhookEndpointSchema),
      responses: { 201: json(webhookEndpointCreated, "The new endpoint with its secret"), ...errors(400, 409, 422) },
    },
    {
      method: "delete",
      path: "/api/v1/webhook-endpoints/{id}",
      summary: "Delete an outgoing webhook endpoint and its delivery log",
      request: { params: idParamsSchema },
      responses: { 204: { description: "Deleted" }, ...errors(404) },
    },
  ];
  for (const path of paths) registry.registerPath({ ...path, security });
  registry.registerPath({
    method: "get",
    path: "/api/v1/openapi.json",
    summary: "This document (no API key needed)",
    responses: {
      200: {
        description: "The OpenAPI document",
        content: { "application/json": { schema: z.object({}).passthrough() } },
      },
    },
  });

  const config = getConfig();
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: {
      title: `${config.APP_NAME} API`,
      version: "1.0.0",
      description:
        "REST API of one shop, authenticated with a per-shop API key. Money is integer minor units next to a currency; " +
        "percent rates are basis points (1000 = 10 %). Lists are newest first with cursor pagination: pass next_cursor as ?cursor=.",
    },
    servers: [{ url: config.appUrl }],
  });
}

let cached: ReturnType<typeof build> | undefined;

export function openApiDocument() {
  cached ??= build();
  return cached;
}
