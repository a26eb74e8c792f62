import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { publicApiRoute, type PublicHandler } from "~/models/api/api-route.server";
import { openApiDocument } from "~/models/api/openapi.server";

// GET /api/v1/openapi.json: the OpenAPI 3 document (public, no API key).
const handlers: { GET: PublicHandler } = {
  GET: async () => openApiDocument(),
};

export async function loader(args: LoaderFunctionArgs) {
  return publicApiRoute(args, handlers);
}

export async function action(args: ActionFunctionArgs) {
  return publicApiRoute(args, handlers);
}
