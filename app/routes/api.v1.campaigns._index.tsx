import { apiRoute, created, endpoint } from "~/door/api-route.server";
import { campaignCreateSchema, campaignListQuerySchema } from "~/models/api/schemas";
import { createCampaign, listCampaigns } from "~/models/campaigns/campaigns.server";
import { requireFeature, requireRoomFor } from "~/models/plans/plan-usage.server";

// GET /api/v1/campaigns (paginated), POST /api/v1/campaigns.
export const loader = /* @__PURE__ */ apiRoute({
  GET: endpoint({ query: campaignListQuerySchema }, ({ db, query }) => listCampaigns(db, query)),
  POST: endpoint({ body: campaignCreateSchema }, async ({ db, shop, body }) => {
    if (body.levels.length) requireFeature(shop.pricingPlan, "mlm");
    await requireRoomFor(db, shop.pricingPlan, "campaigns");
    const campaign = await createCampaign(db, body);
    return created(campaign, `/api/v1/campaigns/${campaign.id}`);
  }),
});
export const action = loader;
