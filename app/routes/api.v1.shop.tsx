import { apiRoute, endpoint } from "~/door/api-route.server";
import { serializeShop } from "~/models/api/serializers";

// GET /api/v1/shop: the shop of the API key.
export const loader = /* @__PURE__ */ apiRoute({ GET: endpoint({}, async ({ shop }) => serializeShop(shop)) });
export const action = loader;
