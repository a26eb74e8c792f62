import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { getReferral } from "~/models/api/referrals.server";

// GET /api/v1/referrals/{id}: a referral with its checks and reward.
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ params: idParams("referral") }, ({ db, params }) => getReferral(db, params.id)),
});
export const action = loader;
