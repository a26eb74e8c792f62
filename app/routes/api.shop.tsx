import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/lib/errors";
import { handleApi, parseJsonBody } from "~/lib/http.server";
import { requireApiMerchant } from "~/models/auth/require-merchant.server";
import { toShopRecord } from "~/models/shop/shop-record";
import { shopUpdateSchema } from "~/models/shop/shop-update-schema";
import { updateShop } from "~/models/shop/update-shop.server";

// GET /api/shop: the shop record of the signed-in merchant (spec section 7).
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiMerchant(request);
  return json(toShopRecord(ctx.shop), { headers: { "Cache-Control": "private, no-store" } });
}

// POST /api/shop: update the shop; answers the new record.
export async function action({ request }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "POST") throw new AppError("bad_request", "Use POST to update the shop.");
    const ctx = await requireApiMerchant(request, "settings");
    const input = await parseJsonBody(request, shopUpdateSchema);
    return json({ shop: await updateShop(ctx.shop.id, input) });
  });
}
