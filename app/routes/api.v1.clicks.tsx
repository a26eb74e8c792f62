import { apiRoute, endpoint } from "~/door/api-route.server";
import { listClicks } from "~/models/api/clicks.server";
import { clickListQuerySchema } from "~/models/api/schemas";

// GET /api/v1/clicks?affiliate_id=&since=&until= (paginated).
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ query: clickListQuerySchema }, ({ db, query }) => listClicks(db, query)),
});
export const action = loader;
