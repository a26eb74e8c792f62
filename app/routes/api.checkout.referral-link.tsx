import { json } from "@remix-run/node";
import { publicRoute } from "~/door/public-route.server";
import { checkoutLinkRequestSchema, checkoutShareLink } from "~/models/referrals/checkout-link.server";
import { shopify } from "~/shopify.server";

// POST /api/checkout/referral-link: the refer-a-friend block on the thank-you
// and order-status pages (extensions/referral-thank-you) asks for the buyer's
// share link, with Shopify's session token as `Authorization: Bearer`.
//
// Extensions run in a web worker on Shopify's origins: every answer carries
// CORS headers (errors too, so the block can read them), and the preflight
// (OPTIONS, which Remix hands to the loader) is answered by shopify-app-remix.
// The checkout and customer-account authenticators are the same check (HS256
// with the app secret); neither compares `aud`, which checkoutShareLink does.

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Max-Age": "7200",
  "Cache-Control": "no-store",
};

const usePost = () => json({ error: { code: "bad_request", message: "Use POST." } }, { status: 405 });

export const loader = /* @__PURE__ */ publicRoute({ headers: CORS }, async ({ request }) => {
  if (request.method === "OPTIONS") await shopify().authenticate.public.checkout(request);
  return usePost();
});

export const action = /* @__PURE__ */ publicRoute(
  { body: checkoutLinkRequestSchema, bodyType: "json", maxJsonBytes: 4 * 1024, headers: CORS },
  async ({ request, body }) => {
    if (request.method !== "POST") return usePost();
    const { sessionToken } = await shopify().authenticate.public.checkout(request);
    return json(await checkoutShareLink(sessionToken, body));
  },
);
