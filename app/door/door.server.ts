import { json, type TypedResponse } from "@remix-run/node";
import { isDatabaseBusy, isWriteConflict } from "../db/client.server";
import { writeOnRead } from "../db/db-context";
import { keyedErrorMap, msg } from "../i18n/messages";
import { keyedErrorBody } from "../i18n/messages.server";
import { AppError, asksToRetryLater, errorBody, fieldErrorsFromZod } from "../lib/errors";
import { echoValues, rawBody, readParams, readQuery, type BodyType, type Schema } from "./input.server";
import { logUnexpected } from "./log-unexpected.server";

// The machinery every kind of route shares (merchant, affiliate, REST, public):
// read and check the input, run the handler, and turn what it throws into an
// answer. Loaders (GET, HEAD) throw their errors, so the route's error boundary
// shows the 403/404/422 screen without any of the page's data; actions return
// them as JSON with the status, so the form on the page can show the messages.

/** Marks a loader or action made by the door; the route manifest test reads it. */
export const DOOR = Symbol.for("app.door");

export type DoorKind = "merchant" | "affiliate" | "api" | "public";

/**
 * How a public route (no session) knows whom it answers, one per door
 * constructor in public-route.server.ts: "page" (anyone: login, portal and
 * marketplace pages, links carrying their own token), "file" (public files
 * under random names), "oauth" (Shopify's install and OAuth steps),
 * "appProxy" (Shopify's signature of the proxied storefront request),
 * "checkout" (a checkout extension's session token), "customerAccount" (a
 * customer account extension's session token, naming the signed-in
 * customer), "pixel" (the web pixel's anonymous report), "signedWebhook" (a
 * provider's signed call) and "flowAction" (Shopify Flow's signed action
 * request).
 */
export const PUBLIC_SCHEMES = [
  "page",
  "file",
  "oauth",
  "appProxy",
  "checkout",
  "customerAccount",
  "pixel",
  "signedWebhook",
  "flowAction",
] as const;
export type PublicScheme = (typeof PUBLIC_SCHEMES)[number];

export interface DoorMark {
  kind: DoorKind;
  area?: string;
  /** A public route's scheme. */
  scheme?: PublicScheme;
}

export interface InputSpec<Q, B, P> {
  query?: Schema<Q>;
  body?: Schema<B>;
  params?: Schema<P>;
  /** "json": a body in any other format is refused (the REST API); see BodyType. */
  bodyType?: BodyType;
  /** Largest JSON body in bytes (default MAX_JSON_BYTES); more is 413. */
  maxJsonBytes?: number;
  /**
   * "zod": zod's own English for rules that give no message (the REST API's
   * contract). Default "keys": translatable keys (app/i18n/messages.ts).
   */
  defaultMessages?: "keys" | "zod";
  /**
   * Why this route's GET writes, where someone else decided it is a GET
   * (Shopify Billing's return, a login handed over from the app proxy, a
   * storefront visit). Any other write during a GET is refused in tests and
   * logged elsewhere (app/db/write-on-read.ts).
   */
  writeOnRead?: string;
}

export interface Input<Q, B, P> {
  query: Q;
  body: B;
  params: P;
  /** A form's fields as sent, for showing a plain HTML form again after an error. */
  rawBody: unknown;
}

export interface RouteArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context?: unknown;
}

export function isRead(request: Request) {
  return request.method === "GET" || request.method === "HEAD";
}

export async function readInput<Q, B, P>(args: RouteArgs, spec: InputSpec<Q, B, P>): Promise<Input<Q, B, P>> {
  const params = (spec.params ? readParams(args.params, spec.params) : args.params) as P;
  const keyed = spec.defaultMessages !== "zod";
  const query = (spec.query ? readQuery(args.request, spec.query, keyed) : undefined) as Q;
  let body = undefined as B;
  let raw: unknown = undefined;
  if (spec.body && !isRead(args.request)) {
    const sent = await rawBody(args.request, spec.body, spec.bodyType, spec.maxJsonBytes);
    if (sent.kind === "form") raw = sent.value;
    body = checkBody(spec.body, sent, keyed);
  }
  return { query, body, params, rawBody: raw };
}

/**
 * A body through its schema; failures are 422 with field messages. Exported
 * for a form whose fields the handler only knows once it has loaded them
 * (the portal's sign-up form, configured per shop): the route reads the form
 * with a loose schema and checks it with `checkBody(schema, { kind: "form", value })`.
 */
export function checkBody<T>(schema: Schema<T>, sent: { kind: "json" | "form"; value: unknown }, keyed = true): T {
  const parsed = schema.safeParse(sent.value, keyed ? { errorMap: keyedErrorMap } : undefined);
  if (parsed.success) return parsed.data;
  // A form's fields are flat names: "coupon_codes.3" is the coupon_codes field.
  const issues =
    sent.kind === "form" ? parsed.error.issues.map((i) => ({ ...i, path: i.path.slice(0, 1) })) : parsed.error.issues;
  throw Object.assign(
    new AppError("validation_failed", "Some fields are not valid.", { fields: fieldErrorsFromZod(issues) }),
    { rawBody: sent.kind === "form" ? sent.value : undefined },
  );
}

/**
 * Runs a handler of a plain-HTML-form route: an AppError it throws (a wrong
 * password, an e-mail already taken) carries the form as sent, so the page
 * can show the values typed again next to the message.
 */
export async function keepingForm<R>(raw: unknown, work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && raw !== undefined && (error as { rawBody?: unknown }).rawBody === undefined) {
      Object.assign(error, { rawBody: raw });
    }
    throw error;
  }
}

/** Seconds a client is asked to wait after a 503 for a busy database. */
const BUSY_RETRY_AFTER_S = "2";

/** Runs a route's handler, with its declared write-on-read if it has one. */
export function withDeclaredWrites<T>(spec: { writeOnRead?: string }, work: () => Promise<T>): Promise<T> {
  return spec.writeOnRead ? writeOnRead(spec.writeOnRead, work) : work();
}

/** A handler's result as a Response: data becomes JSON, a Response passes. */
type Answer<R> = R extends Response ? R : TypedResponse<R>;

export function toResponse<R>(result: R): Answer<R> {
  return (result instanceof Response ? result : json(result)) as Answer<R>;
}

export interface ErrorOptions {
  /** Actions: also send the submitted form values back (plain HTML forms). */
  echo?: boolean;
  /** Extra fields in every error body (e.g. where the user's home is). */
  extra?: Record<string, unknown>;
  /** REST: error answers are never cached. */
  headers?: Record<string, string>;
  /** REST: English messages only, without the translation keys pages use. */
  englishOnly?: boolean;
}

/**
 * What an error becomes. AppErrors answer with their status; a thrown Response
 * (redirect, 401 from the session token check) passes; anything else is a bug:
 * logged once, answered 500 with the generic message and no details.
 */
export function errorResponse(error: unknown, request: Request, options: ErrorOptions = {}): Response {
  if (error instanceof Response) return error;
  if (isDatabaseBusy(error) || asksToRetryLater(error)) {
    // Not a bug: the machine could not serve in time (SQLite's write lock
    // stayed taken, no PostgreSQL connection came, an e-mail this request
    // sends found every template thread busy or ran out of time). Nothing
    // was changed; the client may simply ask again. (The template editor
    // answers its own limits as field errors before they get here.)
    const why = error instanceof Error ? error.message.slice(0, 160) : String(error);
    console.warn(`[route] busy on ${request.method} ${JSON.stringify(new URL(request.url).pathname)}: 503 (${why})`);
    error = new AppError("unavailable", msg("Global:genericMessage"), {
      headers: { "Retry-After": BUSY_RETRY_AFTER_S },
    });
  }
  if (isWriteConflict(error)) {
    // Not a bug either: PostgreSQL ended this transaction (a deadlock, a
    // serialization failure) so a concurrent one could finish. It was rolled
    // back: the client lost a race and may ask again.
    console.warn(`[route] write conflict on ${request.method} ${JSON.stringify(new URL(request.url).pathname)}: 409`);
    error = new AppError("conflict", msg("Global:genericMessage"));
  }
  if (!(error instanceof AppError)) logUnexpected(request, error);
  const answer = errorBody(error);
  const { status, headers } = answer;
  const body = keyedErrorBody(answer.body, !options.englishOnly);
  const raw = (error as { rawBody?: unknown } | null)?.rawBody;
  const echoed = options.echo && raw !== undefined ? { values: echoValues(raw) } : {};
  return json({ ...body, ...options.extra, ...echoed }, { status, headers: { ...options.headers, ...headers } });
}

/** Runs a route: reads errors as loader (thrown) or action (returned) errors. */
export async function runRoute<R>(
  args: RouteArgs,
  work: () => Promise<R>,
  options: ErrorOptions = {},
): Promise<Answer<R>> {
  try {
    return toResponse(await work());
  } catch (error) {
    const response = errorResponse(error, args.request, options);
    // Redirects are returned either way; loaders throw everything else so
    // the error boundary renders and no page data is sent.
    if (isRead(args.request) && !(response.status >= 300 && response.status < 400)) throw response;
    return response as Answer<R>;
  }
}

export function mark<F extends (args: RouteArgs) => Promise<unknown>>(fn: F, doorMark: DoorMark) {
  Object.defineProperty(fn, DOOR, { value: doorMark, enumerable: false });
  return fn as F & { [DOOR]: DoorMark };
}
