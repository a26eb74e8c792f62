import { json } from "@remix-run/node";
import { z } from "zod";
import { signedWebhookRoute } from "~/door/public-route.server";
import { receivePaypalWebhook } from "~/models/paypal/paypal-webhook.server";

// POST /webhooks/paypal/{shopId}: PayPal Payouts item events, verified with
// PayPal (its signature covers the raw body, which the door hands over).
const params = z.object({ shopId: z.string().min(1).max(100) });

export const action = /* @__PURE__ */ signedWebhookRoute({ params }, async ({ request, params, rawBody }) =>
  json(await receivePaypalWebhook(params.shopId, request.headers, rawBody)),
);
