import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseJsonBody } from "~/lib/http.server";
import { apiRoute, pathId, type Handler } from "~/models/api/api-route.server";
import { getCampaign, updateCampaign } from "~/models/campaigns/campaigns.server";
import { campaignUpdateSchema } from "~/models/api/schemas";

// GET /api/v1/campaigns/{id}, PATCH /api/v1/campaigns/{id}.
const handlers: { GET: Handler; PATCH: Handler } = {
  GET: async (api, { params }) => getCampaign(api.shop.id, pathId(params.id, "campaign")),
  PATCH: async (api, { params, request }) => {
    const id = pathId(params.id, "campaign");
    return updateCampaign(api.shop.id, id, await parseJsonBody(request, campaignUpdateSchema));
  },
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
