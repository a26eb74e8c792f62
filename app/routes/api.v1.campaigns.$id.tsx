import { apiRoute, endpoint } from "~/door/api-route.server";
import { idParams } from "~/door/params";
import { campaignUpdateSchema } from "~/models/api/schemas";
import { getCampaign, updateCampaign } from "~/models/campaigns/campaigns.server";
import { requireEditable, requireFeature } from "~/models/plans/plan-usage.server";

// GET /api/v1/campaigns/{id}, PATCH /api/v1/campaigns/{id}.
const params = idParams("campaign");

export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ params }, ({ db, params }) => getCampaign(db, params.id)),
  PATCH: endpoint({ params, body: campaignUpdateSchema }, async ({ db, shop, params, body }) => {
    await requireEditable(db, shop.pricingPlan, "campaigns", [params.id]);
    if (body.levels?.length) requireFeature(shop.pricingPlan, "mlm");
    return updateCampaign(db, params.id, body);
  }),
});
export const action = loader;
