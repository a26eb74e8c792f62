import { json } from "@remix-run/node";
import { appProxyRoute } from "~/door/public-route.server";
import { proxyVisitorAddress } from "~/lib/visitor-address.server";
import { proxyClickQuery, recordProxyClick } from "~/models/tracking/proxy-click.server";

// GET /proxy/click?code=&landing=&referrer= through Shopify's app proxy
// (https://{shop}/apps/affiliate/click, see shopify.app.toml [app_proxy]).
// The storefront script calls it when a visitor arrived with ?ref=CODE but
// not through /r/{code}, so the visit still gets a click id.
//
// Shopify signs every proxied request; the door (appProxyRoute) refuses a
// missing or bad signature (400) before anything is stored. The shop is the
// signed `shop` parameter, never anything the visitor chose.
const HEADERS = { "Cache-Control": "private, no-store" };

export const loader = /* @__PURE__ */ appProxyRoute(
  { query: proxyClickQuery, writeOnRead: "click" },
  async ({ request, query }) => {
    const clickId = await recordProxyClick(query, {
      // The request comes from Shopify's proxy: the visitor's address is the
      // entry it appended to X-Forwarded-For. It is only ever stored as a
      // keyed hash.
      ip: proxyVisitorAddress(request),
      userAgent: request.headers.get("user-agent"),
    });
    return json({ click_id: clickId }, { headers: HEADERS });
  },
);
