import type { LoaderFunctionArgs } from "@remix-run/node";
import { handleApi } from "~/lib/http.server";
import { beginOAuth } from "~/models/shop/shopify-oauth.server";

// Step 4 of /auth: with a shop parameter, go to Shopify's authorization URL.
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(() => beginOAuth(request));
}
