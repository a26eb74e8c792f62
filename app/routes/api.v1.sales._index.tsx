import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, parseQuery, type Handler } from "~/models/api/api-route.server";
import { listSales } from "~/models/api/sales.server";
import { saleListQuerySchema } from "~/models/api/schemas";

// GET /api/v1/sales?status=&affiliate_id=&since=&until= (paginated).
const handlers: { GET: Handler } = {
  GET: async (api, { request }) => listSales(api.shop.id, parseQuery(request, saleListQuerySchema)),
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
