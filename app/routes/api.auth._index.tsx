import { json } from "@remix-run/node";
import { publicRoute } from "~/door/public-route.server";
import { AppError } from "~/lib/errors";
import { isEmbeddedRequest } from "~/models/auth/require-merchant.server";
import { completeOAuth, embeddedShop } from "~/models/shop/shopify-oauth.server";

// GET /api/auth with the /auth launch parameters (spec section 7): answers
// the shop record. With `code`, it completes OAuth; embedded, the session
// token identifies the shop. Shopify's library reads and checks the signed
// parameters itself (HMAC, state cookie), so they are not parsed here.
export const loader = /* @__PURE__ */ publicRoute({ scheme: "oauth" }, async ({ request }) => {
  if (new URL(request.url).searchParams.has("code")) {
    const { shop, headers } = await completeOAuth(request);
    return json(shop, { headers });
  }
  if (isEmbeddedRequest(request)) return embeddedShop(request);
  throw new AppError("bad_request", "Missing authorization parameters (code, or an embedded session token).");
});
