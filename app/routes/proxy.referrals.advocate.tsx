import { json } from "@remix-run/node";
import { publicRoute } from "~/door/public-route.server";
import {
  advocateBody,
  referralProxyContext,
  referralProxyQuery,
  requestAdvocateLink,
} from "~/models/referrals/storefront-proxy.server";

// POST /proxy/referrals/advocate {email?, firstName?} through Shopify's app
// proxy: the advocate's share link (made on the first call, the same on every
// later one). A signed-in customer may leave the e-mail out: the one their
// orders carry is used. Rate-limited per visitor address.
const HEADERS = { "Cache-Control": "private, no-store" };

export const action = /* @__PURE__ */ publicRoute(
  { query: referralProxyQuery, body: advocateBody, headers: HEADERS },
  async ({ request, query, body }) => {
    const ctx = await referralProxyContext(request, query);
    const link = await requestAdvocateLink(ctx, body, "widget");
    return json(
      {
        shareUrl: link.shareUrl,
        token: link.token,
        friendCode: link.friendCode,
        codePending: link.codePending,
        firstName: link.firstName,
      },
      { headers: HEADERS },
    );
  },
);
