import { redirect } from "@remix-run/node";
import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import { startAffiliateSession } from "~/models/affiliate-account/affiliate-session.server";
import { spendHandoverToken } from "~/models/affiliate-account/password-reset.server";

// GET /account/handover?token=...: a login made through the app proxy (on
// the shop's domain, where Shopify passes no cookies) continues here with a
// single-use, two-minute token, and the session starts on this domain.
const query = z.object({ token: z.string().catch("") });

export const loader = /* @__PURE__ */ publicRoute(
  { scheme: "page", query, writeOnRead: "login handover" },
  async ({ query }) => {
    const spent = await spendHandoverToken(query.token);
    if (!spent)
      throw new Response("This login link is invalid or has expired. Log in again.", {
        status: 400,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    return redirect("/account", {
      headers: { "Set-Cookie": await startAffiliateSession(spent.affiliateId, spent.shopId) },
    });
  },
);
