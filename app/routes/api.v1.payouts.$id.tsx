import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { getPayout } from "~/models/api/payouts.server";

// GET /api/v1/payouts/{id}
const params = idParams("payout");
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ params }, ({ db, params }) => getPayout(db, params.id)),
});
export const action = loader;
