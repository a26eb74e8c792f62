import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, type Handler } from "~/models/api/api-route.server";
import { serializeShop } from "~/models/api/serializers";

// GET /api/v1/shop: the shop of the API key.
const handlers: { GET: Handler } = {
  GET: async (api) => serializeShop(api.shop),
};

export async function loader(args: LoaderFunctionArgs) {
  return apiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return apiRoute(args, handlers);
}
