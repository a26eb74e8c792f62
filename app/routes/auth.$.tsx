import { redirect } from "@remix-run/node";
import { publicRoute } from "~/door/public-route.server";
import { checkShopifyAuthPath } from "~/models/auth/shopify-auth-paths.server";
import { shopify } from "~/shopify.server";

// /auth/session-token (App Bridge bounce page) and /auth/exit-iframe are
// answered by shopify-app-remix itself, once their query is known to be sound
// (it throws its own responses, which the door passes on unchanged).
export const loader = /* @__PURE__ */ publicRoute({ scheme: "oauth" }, async ({ request }) => {
  const refused = await checkShopifyAuthPath(request);
  if (refused) throw refused;
  await shopify().authenticate.admin(request);
  // Keep shop/host/embedded so the dashboard loads embedded, not standalone.
  return redirect(`/admin/dashboard${new URL(request.url).search}`);
});
