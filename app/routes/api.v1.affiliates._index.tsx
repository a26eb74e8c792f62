import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseJsonBody } from "~/lib/http.server";
import { createAffiliate, listAffiliates } from "~/models/api/affiliates.server";
import { apiRoute, created, parseQuery, type Handler } from "~/models/api/api-route.server";
import { affiliateCreateSchema, affiliateListQuerySchema } from "~/models/api/schemas";

// GET /api/v1/affiliates (paginated), POST /api/v1/affiliates.
const handlers: { GET: Handler; POST: Handler } = {
  GET: async (api, { request }) => listAffiliates(api.shop, parseQuery(request, affiliateListQuerySchema)),
  POST: async (api, { request }) => {
    const affiliate = await createAffiliate(api.shop, await parseJsonBody(request, affiliateCreateSchema));
    return created(affiliate, `/api/v1/affiliates/${affiliate.id}`);
  },
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
