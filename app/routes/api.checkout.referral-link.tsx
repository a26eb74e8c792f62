import { json } from "@remix-run/node";
import { checkoutPreflight, checkoutRoute } from "~/door/public-route.server";
import { checkoutLinkRequestSchema, checkoutShareLink } from "~/models/referrals/checkout-link.server";

// POST /api/checkout/referral-link: the refer-a-friend block on the thank-you
// and order-status pages (extensions/referral-thank-you) asks for the buyer's
// share link, with Shopify's session token as `Authorization: Bearer`.
//
// The checkout door (CORS on every answer, the preflight, POST only, the
// session token checked) is checkoutRoute's. The checkout and
// customer-account authenticators are the same check (HS256 with the app
// secret); neither compares `aud`, which checkoutShareLink does.

export const loader = /* @__PURE__ */ checkoutPreflight();

export const action = /* @__PURE__ */ checkoutRoute(
  { body: checkoutLinkRequestSchema, bodyType: "json", maxJsonBytes: 4 * 1024 },
  async ({ sessionToken, body }) => json(await checkoutShareLink(sessionToken, body)),
);
