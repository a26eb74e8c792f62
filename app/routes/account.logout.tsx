import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endAffiliateSession, getAffiliateSession } from "~/models/affiliate-account/affiliate-session.server";
import { getDb } from "~/db.server";
import { requestWay } from "~/models/portal/portal-context.server";

// POST /account/logout: ends the session (the row too) and goes back to the portal's login page.
export async function action({ request }: ActionFunctionArgs) {
  const shopId = (await getAffiliateSession(request)).get("shopId");
  const shop = shopId ? await getDb().shop.findUnique({ where: { id: shopId }, select: { domain: true } }) : null;
  const login =
    requestWay(request) === "custom" || !shop
      ? "/login"
      : `/portal/${shop.domain.replace(/\.myshopify\.com$/, "")}/login`;
  return redirect(login, { headers: { "Set-Cookie": await endAffiliateSession(request) } });
}

export function loader() {
  return redirect("/account");
}
