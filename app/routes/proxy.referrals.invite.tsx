import { json } from "@remix-run/node";
import { appProxyRoute } from "~/door/public-route.server";
import { inviteQuery, openInvite, referralProxyContext } from "~/models/referrals/storefront-proxy.server";

// GET /proxy/referrals/invite?token=&device=&visit= through Shopify's app
// proxy: a friend opened a share link. Answers the friend's code (or
// "pending" while it is made in Shopify), records the visit when the script
// has marketing consent (visit=1), 404 for an unknown or withdrawn link.
const HEADERS = { "Cache-Control": "private, no-store" };

export const loader = /* @__PURE__ */ appProxyRoute(
  // The storefront script asks by GET (app proxy); the visit and the device's code are recorded.
  { query: inviteQuery, headers: HEADERS, writeOnRead: "storefront visit" },
  async ({ request, query }) =>
    json(await openInvite(await referralProxyContext(request, query), query), { headers: HEADERS }),
);
