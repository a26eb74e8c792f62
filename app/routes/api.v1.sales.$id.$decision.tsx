import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, notFoundResponse, pathId, type Handler } from "~/models/api/api-route.server";
import { decideSale } from "~/models/api/sales.server";

// POST /api/v1/sales/{id}/approve and /deny; any other last segment is 404.
const handlers: { POST: Handler } = {
  POST: async (api, { params }) =>
    decideSale(api.shop.id, pathId(params.id, "sale"), params.decision === "approve" ? "approve" : "deny"),
};

function isDecision(value: string | undefined) {
  return value === "approve" || value === "deny";
}

export async function loader(args: LoaderFunctionArgs) {
  return isDecision(args.params.decision) ? apiRoute(args, handlers) : notFoundResponse();
}

export async function action(args: ActionFunctionArgs) {
  return isDecision(args.params.decision) ? apiRoute(args, handlers) : notFoundResponse();
}
