import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseJsonBody } from "~/lib/http.server";
import { getAffiliate, updateAffiliate } from "~/models/api/affiliates.server";
import { apiRoute, pathId, type Handler } from "~/models/api/api-route.server";
import { affiliateUpdateSchema } from "~/models/api/schemas";

// GET /api/v1/affiliates/{id}, PATCH /api/v1/affiliates/{id}.
const handlers: { GET: Handler; PATCH: Handler } = {
  GET: async (api, { params }) => getAffiliate(api.shop, pathId(params.id, "affiliate")),
  PATCH: async (api, { params, request }) => {
    const id = pathId(params.id, "affiliate");
    return updateAffiliate(api.shop, id, await parseJsonBody(request, affiliateUpdateSchema));
  },
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
