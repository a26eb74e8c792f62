import { json } from "@remix-run/node";
import { getDb } from "../db.server";
import { shopDb, type ShopDb } from "../db/shop-db.server";
import { noteShop } from "../lib/request-notes";
import { authenticateApiKey, type ApiContext } from "../models/api/api-auth.server";
import { errorResponse, mark, readInput, type InputSpec, type RouteArgs } from "./door.server";
import type { Schema } from "./input.server";
import { cheapestPlanWith, planAllows, planOf } from "../models/plans/plans";

// The door of /api/v1: method dispatch (405 JSON with an Allow header), the
// API key (its shop scopes the database client), the input through each
// method's schemas, and every answer, errors included, as uncached JSON.
// `auth: "none"` is for the public OpenAPI document and the 404 catch-all.

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface ApiRequest<Q, B, P> extends ApiContext {
  request: Request;
  db: ShopDb;
  query: Q;
  body: B;
  params: P;
}

export interface Endpoint {
  run: (args: RouteArgs, needsKey: boolean) => Promise<unknown>;
}

/** One method's input schemas and handler (a function so its types are inferred). */
export function endpoint<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: InputSpec<Q, B, P>,
  handler: (ctx: ApiRequest<Q, B, P>) => Promise<R>,
): Endpoint {
  return {
    run: async (args, needsKey) => {
      const api = needsKey ? await authenticateApiKey(args.request) : null;
      if (api) noteShop(args.context, api.shop.domain);
      if (api && !planAllows(api.shop.pricingPlan, "integrations")) return apiUpgradeRequired(api.shop.pricingPlan);
      // API clients get zod's own English for rules without a message, as always.
      const input = await readInput(args, { ...spec, bodyType: "json", defaultMessages: "zod" });
      return handler({
        ...(api as ApiContext),
        request: args.request,
        db: api ? shopDb(getDb(), api.shop.id) : (null as unknown as ShopDb),
        ...input,
      });
    },
  };
}

// The REST API is the plan's "integrations" feature (docs/decisions/029): a
// key of a shop whose plan lost it (a downgrade) answers 403 with what to do,
// before any input is read. Keys stay; upgrading opens the API again.
function apiUpgradeRequired(planId: string | null) {
  const plan = cheapestPlanWith("integrations");
  return json(
    {
      error: {
        code: "forbidden",
        message: `The REST API is not included in this store's ${planOf(planId).id} plan. Upgrade to the ${plan?.id ?? "pro"} plan in the app (Plans) to use it; your data and API keys are kept.`,
      },
      upgrade: { feature: "integrations", plan: plan?.id ?? null },
    },
    { status: 403, headers: { "Cache-Control": "no-store" } },
  );
}

const NO_STORE = { "Cache-Control": "no-store" };

function methodOf(request: Request): string {
  return request.method === "HEAD" ? "GET" : request.method.toUpperCase();
}

export function apiRoute(
  endpoints: Partial<Record<Method, Endpoint>>,
  options: { auth?: "key" | "none"; path?: Schema<unknown> } = {},
) {
  const allowed = Object.keys(endpoints);
  const route = async (args: RouteArgs): Promise<Response> => {
    // A path that names no endpoint is 404 whatever the method.
    if (options.path && !options.path.safeParse(args.params).success) return notFoundJson();
    const chosen = endpoints[methodOf(args.request) as Method];
    if (!chosen) {
      return json(
        { error: { code: "method_not_allowed", message: `Use ${allowed.join(" or ")} on this path.` } },
        { status: 405, headers: { ...NO_STORE, Allow: allowed.join(", ") } },
      );
    }
    try {
      const result = await chosen.run(args, options.auth !== "none");
      const response = result instanceof Response ? result : json(result);
      if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
      return response;
    } catch (error) {
      return errorResponse(error, args.request, { headers: NO_STORE, englishOnly: true });
    }
  };
  return mark(route, { kind: "api" });
}

export function created(body: unknown, location: string): Response {
  return json(body, { status: 201, headers: { ...NO_STORE, Location: location } });
}

function notFoundJson() {
  return json({ error: { code: "not_found", message: "No such API endpoint." } }, { status: 404, headers: NO_STORE });
}

/** Any path under /api/v1 that names no endpoint (any method): 404 JSON. */
export function apiNotFound() {
  return mark(async () => notFoundJson(), { kind: "api" });
}
