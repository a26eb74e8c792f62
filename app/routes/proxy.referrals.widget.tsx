import { json } from "@remix-run/node";
import { appProxyRoute } from "~/door/public-route.server";
import { referralProxyContext, referralProxyQuery, widgetPayload } from "~/models/referrals/storefront-proxy.server";

// GET /proxy/referrals/widget?locale= through Shopify's app proxy
// (https://{shop}/apps/affiliate/referrals/widget): the refer-a-friend
// widget's colours, position and texts in the visitor's language. 403 when
// the shop's program is off or its plan lacks refer-a-friend (the script then
// shows nothing), 400 on a bad signature.
const HEADERS = { "Cache-Control": "private, no-store" };

export const loader = /* @__PURE__ */ appProxyRoute(
  { query: referralProxyQuery, headers: HEADERS },
  async ({ request, query }) => json(widgetPayload(await referralProxyContext(request, query)), { headers: HEADERS }),
);
