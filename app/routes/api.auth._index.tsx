import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/lib/errors";
import { handleApi } from "~/lib/http.server";
import { isEmbeddedRequest } from "~/models/auth/require-merchant.server";
import { completeOAuth, embeddedShop } from "~/models/shop/shopify-oauth.server";

// GET /api/auth with the /auth launch parameters (spec section 7): answers
// the shop record. With `code`, it completes OAuth; embedded, the session
// token identifies the shop.
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const params = new URL(request.url).searchParams;
    if (params.has("code")) {
      const { shop, headers } = await completeOAuth(request);
      return json(shop, { headers });
    }
    if (isEmbeddedRequest(request)) return json(await embeddedShop(request));
    throw new AppError("bad_request", "Missing authorization parameters (code, or an embedded session token).");
  });
}
