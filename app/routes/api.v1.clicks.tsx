import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, parseQuery, type Handler } from "~/models/api/api-route.server";
import { listClicks } from "~/models/api/clicks.server";
import { clickListQuerySchema } from "~/models/api/schemas";

// GET /api/v1/clicks?affiliate_id=&since=&until= (paginated).
const handlers: { GET: Handler } = {
  GET: async (api, { request }) => listClicks(api.shop.id, parseQuery(request, clickListQuerySchema)),
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
