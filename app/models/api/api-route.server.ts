import { json, type ActionFunctionArgs } from "@remix-run/node";
import type { ZodType, ZodTypeDef } from "zod";
import { AppError, fieldErrorsFromZod } from "../../lib/errors";
import { handleApi } from "../../lib/http.server";
import { authenticateApiKey, type ApiContext } from "./api-auth.server";
import { ID_PATTERN } from "./schemas";

// The plumbing every /api/v1 route shares: method dispatch (405 JSON with an
// Allow header), API key authentication, JSON answers that are never cached,
// and AppErrors turned into {"error": {...}} bodies.

type Method = "GET" | "POST" | "PATCH";
type Args = Pick<ActionFunctionArgs, "request" | "params">;
export type Handler = (api: ApiContext, args: Args) => Promise<unknown>;
export type PublicHandler = (args: Args) => Promise<unknown>;

const HEADERS = { "Cache-Control": "no-store" };

function respond(result: unknown): Response {
  if (result instanceof Response) {
    if (!result.headers.has("Cache-Control")) result.headers.set("Cache-Control", "no-store");
    return result;
  }
  return json(result, { headers: HEADERS });
}

function methodOf(request: Request): string {
  return request.method === "HEAD" ? "GET" : request.method.toUpperCase();
}

function methodNotAllowed(allowed: string[]) {
  return json(
    { error: { code: "method_not_allowed", message: `Use ${allowed.join(" or ")} on this path.` } },
    { status: 405, headers: { ...HEADERS, Allow: allowed.join(", ") } },
  );
}

/** An authenticated route: `handlers` maps each allowed method to its handler. */
export async function apiRoute(args: Args, handlers: Partial<Record<Method, Handler>>): Promise<Response> {
  const handler = handlers[methodOf(args.request) as Method];
  if (!handler) return methodNotAllowed(Object.keys(handlers));
  return respondTo(async () => handler(await authenticateApiKey(args.request), args));
}

/** A route that needs no API key (the OpenAPI document, the 404 catch-all). */
export async function publicApiRoute(args: Args, handlers: Partial<Record<Method, PublicHandler>>): Promise<Response> {
  const handler = handlers[methodOf(args.request) as Method];
  if (!handler) return methodNotAllowed(Object.keys(handlers));
  return respondTo(() => handler(args));
}

async function respondTo(fn: () => Promise<unknown>): Promise<Response> {
  const result = await handleApi(fn);
  return respond(result);
}

export function created(body: unknown, location: string): Response {
  return json(body, { status: 201, headers: { ...HEADERS, Location: location } });
}

/** A path id: anything that could not be an id is simply not found. */
export function pathId(value: string | undefined, what = "resource"): string {
  if (!value || !ID_PATTERN.test(value)) throw new AppError("not_found", `No ${what} with this id.`);
  return value;
}

/** Validates the query string (first value of each parameter); 422 with fields otherwise. */
export function parseQuery<T>(request: Request, schema: ZodType<T, ZodTypeDef, unknown>): T {
  const raw: Record<string, string> = {};
  for (const [key, value] of new URL(request.url).searchParams) if (!(key in raw)) raw[key] = value;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError("validation_failed", "Some query parameters are not valid.", {
      fields: fieldErrorsFromZod(parsed.error.issues),
    });
  }
  return parsed.data;
}

export function notFoundResponse(): Response {
  return json({ error: { code: "not_found", message: "No such API endpoint." } }, { status: 404, headers: HEADERS });
}
