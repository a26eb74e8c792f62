import { z } from "zod";
import { apiRoute, endpoint } from "~/door/api-route.server";
import { requireApiPlanFeature } from "~/models/api/plan-feature.server";
import { getReferralProgram, updateReferralProgram } from "~/models/referrals/save-referral-program.server";

// GET /api/v1/referral-program; PUT (the keys sent replace the stored ones,
// nested objects key by key; the result must be a whole valid program).
const patch = z.record(z.string(), z.unknown());

export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({}, async ({ db, shop }) => {
    requireApiPlanFeature(shop, "referAFriend");
    return getReferralProgram(db);
  }),
  PUT: endpoint({ body: patch }, async ({ db, shop, body }) => {
    requireApiPlanFeature(shop, "referAFriend");
    return updateReferralProgram(db, body);
  }),
});
export const action = loader;
