import type { ZodType, ZodTypeDef } from "zod";
import { z } from "zod";
import { keyedErrorMap } from "../i18n/messages";
import { AppError, fieldErrorsFromZod } from "../lib/errors";

// The one way a route reads its input: the query string, the body (JSON or a
// form) and the path parameters, each through the zod schema the route names.
// Bad input is always 422 with field messages (400 only when the body cannot be
// read at all); path parameters that do not parse are 404, because an id that
// could not exist names nothing.

export type Schema<T> = ZodType<T, ZodTypeDef, unknown>;

/** Keys whose schema is an array: every value of a repeated key is kept for them. */
function arrayKeys(schema: ZodType): Set<string> {
  const keys = new Set<string>();
  const visit = (s: ZodType | undefined, key?: string): void => {
    if (!s) return;
    const def = (s as unknown as { _def: Record<string, unknown> })._def;
    if (s instanceof z.ZodArray) {
      if (key) keys.add(key);
      return;
    }
    if (s instanceof z.ZodObject) {
      if (key) return;
      for (const [k, v] of Object.entries(s.shape as Record<string, ZodType>)) visit(v, k);
      return;
    }
    if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) {
      const options = (def.options as ZodType[] | Map<unknown, ZodType>) ?? [];
      for (const option of options instanceof Map ? options.values() : options) visit(option, key);
      return;
    }
    if (s instanceof z.ZodIntersection) {
      visit(def.left as ZodType, key);
      visit(def.right as ZodType, key);
      return;
    }
    // A preprocess step takes the raw values itself (e.g. splits "a,b").
    if (s instanceof z.ZodEffects && (def.effect as { type: string }).type === "preprocess") return;
    // Wrappers: optional, nullable, default, catch, refinements, pipeline, branded.
    visit((def.innerType ?? def.schema ?? def.in ?? def.type) as ZodType | undefined, key);
  };
  visit(schema);
  return keys;
}

const arrayKeyCache = new WeakMap<ZodType, Set<string>>();

/**
 * Entries (query string or form) to a plain object for `schema`: a key the
 * schema declares as an array keeps every value; any other key takes its
 * first value, as URLSearchParams.get does.
 */
export function entriesToObject(entries: Iterable<[string, unknown]>, schema: ZodType): Record<string, unknown> {
  let arrays = arrayKeyCache.get(schema);
  if (!arrays) arrayKeyCache.set(schema, (arrays = arrayKeys(schema)));
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of entries) {
    // `ids[]=a&ids[]=b` is the same as `ids=a&ids=b`.
    const key = rawKey.endsWith("[]") ? rawKey.slice(0, -2) : rawKey;
    if (arrays.has(key)) ((out[key] as unknown[] | undefined) ??= []).push(value);
    else if (!(key in out)) out[key] = value;
  }
  return out;
}

export function readQuery<T>(request: Request, schema: Schema<T>, keyed = true): T {
  const parsed = schema.safeParse(
    entriesToObject(new URL(request.url).searchParams, schema),
    keyed ? { errorMap: keyedErrorMap } : undefined,
  );
  if (parsed.success) return parsed.data;
  throw new AppError("validation_failed", "Some query parameters are not valid.", {
    fields: fieldErrorsFromZod(parsed.error.issues),
  });
}

export function readParams<T>(params: Record<string, string | undefined>, schema: Schema<T>): T {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError("not_found", parsed.error.issues[0]?.message ?? "Page not found");
  return parsed.data;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * Which bodies a route takes: JSON or a form (the default); JSON only (the
 * REST API, the admin's own JSON endpoints); or JSON also when sent as
 * text/plain, which a script on another origin may send without a CORS
 * preflight (the checkout pixel).
 */
export type BodyType = "json" | "json-or-form" | "json-or-text";

/** The largest JSON body read unless a route says otherwise. */
export const MAX_JSON_BYTES = 256 * 1024;

export interface RawBody {
  kind: "json" | "form";
  value: unknown;
}

function tooLarge(): AppError {
  return new AppError("payload_too_large", "The request body is too large.");
}

async function readJson(request: Request, max: number): Promise<RawBody> {
  // Read before refusing: answering while the client is still sending
  // stalls the next request on that keep-alive connection. (A limit that
  // stops reading belongs in front of Remix, where the socket is in reach.)
  const text = await request.text().catch(() => {
    throw new AppError("bad_request", "The request body could not be read.");
  });
  if (text.length > max) throw tooLarge();
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
}

/** What a request's body holds, before the schema: a JSON value or a form's entries. */
export async function rawBody(
  request: Request,
  schema: ZodType,
  accept: BodyType = "json-or-form",
  maxJsonBytes = MAX_JSON_BYTES,
): Promise<RawBody> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || (accept === "json-or-text" && type === "text/plain")) {
    return readJson(request, maxJsonBytes);
  }
  if (accept !== "json-or-form") throw new AppError("bad_request", "Send the body as application/json.");
  if (FORM_TYPES.includes(type) || type === "") {
    // A body-less POST (a button with no fields) has no content type.
    if (type === "" && request.body === null) return { kind: "form", value: {} };
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new AppError("bad_request", "The form could not be read.");
    }
    return { kind: "form", value: entriesToObject(form.entries(), schema) };
  }
  throw new AppError("bad_request", "Send the body as JSON or as a form.");
}

/** Form values to show again after an error (never passwords or tokens). */
export function echoValues(raw: unknown): Record<string, string> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).filter(
      // Secrets are typed again, never echoed: passwords, tokens and taxpayer ids (tin, usTin, foreignTin).
      (e): e is [string, string] =>
        typeof e[1] === "string" && !/password|confirm|token|current/i.test(e[0]) && !/(^tin|Tin)$/.test(e[0]),
    ),
  );
}
