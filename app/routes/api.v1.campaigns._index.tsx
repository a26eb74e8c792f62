import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseJsonBody } from "~/lib/http.server";
import { apiRoute, created, parseQuery, type Handler } from "~/models/api/api-route.server";
import { createCampaign, listCampaigns } from "~/models/campaigns/campaigns.server";
import { campaignCreateSchema, campaignListQuerySchema } from "~/models/api/schemas";

// GET /api/v1/campaigns (paginated), POST /api/v1/campaigns.
const handlers: { GET: Handler; POST: Handler } = {
  GET: async (api, { request }) => listCampaigns(api.shop.id, parseQuery(request, campaignListQuerySchema)),
  POST: async (api, { request }) => {
    const campaign = await createCampaign(api.shop.id, await parseJsonBody(request, campaignCreateSchema));
    return created(campaign, `/api/v1/campaigns/${campaign.id}`);
  },
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
