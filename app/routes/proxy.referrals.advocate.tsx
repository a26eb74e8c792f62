import { json } from "@remix-run/node";
import { appProxyRoute } from "~/door/public-route.server";
import {
  advocateBody,
  referralProxyContext,
  referralProxyQuery,
  requestAdvocateLink,
} from "~/models/referrals/storefront-proxy.server";

// POST /proxy/referrals/advocate {email?, firstName?} through Shopify's app
// proxy: the advocate's share link (made on the first call, the same on every
// later one), answered to the signed-in customer whose orders carry that
// e-mail (who may leave it out); anyone else is sent the link by e-mail and
// answered {sent: true}. Rate-limited per visitor address.
const HEADERS = { "Cache-Control": "private, no-store" };

export const action = /* @__PURE__ */ appProxyRoute(
  { query: referralProxyQuery, body: advocateBody, headers: HEADERS },
  async ({ request, query, body }) => {
    const ctx = await referralProxyContext(request, query);
    const link = await requestAdvocateLink(ctx, body, "widget");
    if (link.kind === "sent") return json({ sent: true }, { headers: HEADERS });
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
