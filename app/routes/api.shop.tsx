import { json } from "@remix-run/node";
import { merchantRoute } from "~/door/merchant-route.server";
import { AppError } from "~/lib/errors";
import { toShopRecord } from "~/models/shop/shop-record";
import { shopUpdateSchema } from "~/models/shop/shop-update-schema";
import { updateShop } from "~/models/shop/update-shop.server";

// GET /api/shop: the shop record of the signed-in merchant (spec section 7);
// every staff member may read it.
export const loader = /* @__PURE__ */ merchantRoute({ area: "any", auth: "api" }, async ({ shop }) =>
  json(toShopRecord(shop), { headers: { "Cache-Control": "private, no-store" } }),
);

// POST /api/shop: update the shop (a JSON body); answers the new record.
export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", auth: "api", body: shopUpdateSchema, bodyType: "json" },
  async ({ request, db, body }) => {
    if (request.method !== "POST") throw new AppError("bad_request", "Use POST to update the shop.");
    return { shop: await updateShop(db, body) };
  },
);
