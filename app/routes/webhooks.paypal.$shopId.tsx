import { json } from "@remix-run/node";
import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import { receivePaypalWebhook } from "~/models/paypal/paypal-webhook.server";

// POST /webhooks/paypal/{shopId}: PayPal Payouts item events, verified with PayPal.
const params = z.object({ shopId: z.string().min(1).max(100) });

export const action = /* @__PURE__ */ publicRoute({ params }, async ({ request, params }) => {
  if (request.method !== "POST") return json({ error: { code: "method_not_allowed" } }, { status: 405 });
  return json(await receivePaypalWebhook(params.shopId, request.headers, await request.text()));
});
