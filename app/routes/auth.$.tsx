import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { shopify } from "~/shopify.server";

// /auth/session-token (App Bridge bounce page) and /auth/exit-iframe are
// answered by shopify-app-remix itself.
export async function loader({ request }: LoaderFunctionArgs) {
  await shopify().authenticate.admin(request);
  // Keep shop/host/embedded so the dashboard loads embedded, not standalone.
  return redirect(`/admin/dashboard${new URL(request.url).search}`);
}
