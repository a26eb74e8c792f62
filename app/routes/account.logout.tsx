import { redirect } from "@remix-run/node";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { shopHandle } from "~/lib/portal-ways";
import { endAffiliateSession } from "~/models/affiliate-account/affiliate-session.server";

// POST /account/logout: ends the session (the row too) and goes back to the
// portal's login page. Without a session the door already sends the visitor
// to a login page; a cross-site POST is refused, so no page can log one out.
export const action = /* @__PURE__ */ affiliateRoute({}, async ({ request, shop, way }) => {
  const login = way === "custom" ? "/login" : `/portal/${shopHandle(shop.domain)}/login`;
  return redirect(login, { headers: { "Set-Cookie": await endAffiliateSession(request) } });
});

export const loader = /* @__PURE__ */ affiliateRoute({}, async () => redirect("/account"));
