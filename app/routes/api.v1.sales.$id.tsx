import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, pathId, type Handler } from "~/models/api/api-route.server";
import { getSale } from "~/models/api/sales.server";

// GET /api/v1/sales/{id}: a sale with its attribution and commissions.
const handlers: { GET: Handler } = {
  GET: async (api, { params }) => getSale(api.shop.id, pathId(params.id, "sale")),
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
