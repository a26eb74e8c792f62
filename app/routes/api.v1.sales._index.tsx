import { apiRoute, endpoint } from "~/door/api-route.server";
import { listSales } from "~/models/api/sales.server";
import { saleListQuerySchema } from "~/models/api/schemas";

// GET /api/v1/sales?status=&affiliate_id=&since=&until= (paginated).
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ query: saleListQuerySchema }, ({ db, query }) => listSales(db, query)),
});
export const action = loader;
