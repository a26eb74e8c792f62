import { apiRoute, created, endpoint } from "~/door/api-route.server";
import { createWebhookEndpointApi, listWebhookEndpointsApi } from "~/models/api/webhook-endpoints.server";
import { webhookEndpointSchema } from "~/models/webhooks-out/webhook-endpoint-form";

// GET /api/v1/webhook-endpoints, POST /api/v1/webhook-endpoints (the answer carries the secret, once).
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({}, ({ db }) => listWebhookEndpointsApi(db)),
  POST: endpoint({ body: webhookEndpointSchema }, async ({ db, shop, body }) => {
    const endpointOut = await createWebhookEndpointApi(db, shop.id, body);
    return created(endpointOut, `/api/v1/webhook-endpoints/${endpointOut.id}`);
  }),
});
export const action = loader;
