import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { requireApiPlanFeature } from "~/models/api/plan-feature.server";
import { getReferral } from "~/models/api/referrals.server";

// GET /api/v1/referrals/{id}: a referral with its checks and reward.
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ params: idParams("referral") }, async ({ db, shop, params }) => {
    requireApiPlanFeature(shop, "referAFriend");
    return getReferral(db, params.id);
  }),
});
export const action = loader;
