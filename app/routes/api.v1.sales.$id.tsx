import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { getSale } from "~/models/api/sales.server";

// GET /api/v1/sales/{id}: a sale with its attribution and commissions.
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ params: idParams("sale") }, ({ db, params }) => getSale(db, params.id)),
});
export const action = loader;
