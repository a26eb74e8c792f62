import { apiRoute, endpoint } from "~/door/api-route.server";
import { paypalConnectionSchema } from "~/models/paypal/paypal-connection-schema";
import { requireFeature } from "~/models/plans/plan-usage.server";
import { connectPaypal, getPaypalConnection } from "~/models/paypal/paypal-connection.server";

// GET /api/v1/paypal/connection (never the secret), PUT (verifies with PayPal first).
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({}, ({ db }) => getPaypalConnection(db)),
  PUT: endpoint({ body: paypalConnectionSchema }, ({ db, shop, body }) => {
    requireFeature(shop.pricingPlan, "paypalPayouts");
    return connectPaypal(db, body);
  }),
});
export const action = loader;
