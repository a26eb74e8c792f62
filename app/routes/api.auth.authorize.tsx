import { publicRoute } from "~/door/public-route.server";
import { beginOAuth } from "~/models/shop/shopify-oauth.server";

// Step 4 of /auth: with a shop parameter, go to Shopify's authorization URL
// (beginOAuth refuses a shop that is not a myshopify.com domain).
export const loader = /* @__PURE__ */ publicRoute({ scheme: "oauth" }, async ({ request }) => beginOAuth(request));
