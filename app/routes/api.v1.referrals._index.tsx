import { apiRoute, endpoint } from "~/door/api-route.server";
import { requireApiPlanFeature } from "~/models/api/plan-feature.server";
import { referralListQuerySchema } from "~/models/api/referral-schemas";
import { listReferrals } from "~/models/api/referrals.server";

// GET /api/v1/referrals?status=&advocate_email=&since=&until= (paginated).
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ query: referralListQuerySchema }, async ({ db, shop, query }) => {
    requireApiPlanFeature(shop, "referAFriend");
    return listReferrals(db, query);
  }),
});
export const action = loader;
