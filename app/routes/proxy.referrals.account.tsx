import { redirect } from "@remix-run/node";
import { appProxyRoute } from "~/door/public-route.server";
import { accountPageData, renderAccountPage } from "~/models/referrals/account-page.server";
import {
  referralProxyContext,
  referralProxyQuery,
  requestAdvocateLink,
} from "~/models/referrals/storefront-proxy.server";

// GET /proxy/referrals/account through Shopify's app proxy
// (https://{shop}/apps/affiliate/referrals/account): the signed-in customer's
// referral page. POST makes their link with the e-mail of their orders.
const HEADERS = { "Cache-Control": "private, no-store" };

// The proxied address of this page on the shop (path_prefix is signed).
const pagePath = (request: Request) => {
  const prefix = new URL(request.url).searchParams.get("path_prefix") ?? "/apps/affiliate";
  return `${/^\/[A-Za-z0-9/_-]*$/.test(prefix) ? prefix.replace(/\/$/, "") : "/apps/affiliate"}/referrals/account`;
};

export const loader = /* @__PURE__ */ appProxyRoute(
  { query: referralProxyQuery, headers: HEADERS },
  async ({ request, query }) => {
    const ctx = await referralProxyContext(request, query);
    const html = renderAccountPage(ctx, await accountPageData(ctx), pagePath(request));
    return new Response(html, { headers: { ...HEADERS, "Content-Type": "text/html; charset=utf-8" } });
  },
);

export const action = /* @__PURE__ */ appProxyRoute(
  { query: referralProxyQuery, headers: HEADERS },
  async ({ request, query }) => {
    const ctx = await referralProxyContext(request, query);
    // Only a signed-in customer, and only with the e-mail their orders carry.
    if (ctx.customerGid) await requestAdvocateLink(ctx, { email: "", firstName: "" }, "account");
    return redirect(pagePath(request), { status: 303, headers: HEADERS });
  },
);
