import { json } from "@remix-run/node";
import type { ZodType, ZodTypeDef } from "zod";
import { AppError, errorBody, fieldErrorsFromZod } from "./errors";

/** Runs an API handler; AppErrors become JSON errors, Responses pass through. */
export async function handleApi<T>(fn: () => Promise<T>): Promise<T | Response> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Response) throw error;
    if (!(error instanceof AppError)) console.error("[api] unexpected error:", error);
    const { status, body, headers } = errorBody(error);
    return json(body, { status, headers });
  }
}

const MAX_JSON_BYTES = 256 * 1024;

/** Reads and validates a JSON body; anything malformed is a 4xx AppError. */
export async function parseJsonBody<T>(request: Request, schema: ZodType<T, ZodTypeDef, unknown>): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) throw new AppError("bad_request", "Send the body as application/json.");
  const text = await request.text();
  if (text.length > MAX_JSON_BYTES) throw new AppError("payload_too_large", "The request body is too large.");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: fieldErrorsFromZod(parsed.error.issues),
    });
  }
  return parsed.data;
}

/** Reads a urlencoded/multipart form and validates it. */
export async function parseForm<T>(request: Request, schema: ZodType<T, ZodTypeDef, unknown>): Promise<T> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new AppError("bad_request", "The form could not be read.");
  }
  return parseFormData(form, schema);
}

/** Validates the text fields of a form already read (e.g. one that also carries a file). */
export function parseFormData<T>(form: FormData, schema: ZodType<T, ZodTypeDef, unknown>): T {
  const data: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") data[key] = value;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: fieldErrorsFromZod(parsed.error.issues),
    });
  }
  return parsed.data;
}

/** Validates a page's query string; bad values are a 400 with field messages. */
export function parseQuery<T>(request: Request, schema: ZodType<T, ZodTypeDef, unknown>): T {
  const data = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new AppError("bad_request", "Some query parameters are not valid.", {
      fields: fieldErrorsFromZod(parsed.error.issues),
    });
  }
  return parsed.data;
}

/**
 * Runs a page loader's work: an AppError becomes a thrown JSON response with
 * its status (the route's error boundary shows 403/404 screens), so a loader
 * never turns a client's mistake into a 500.
 */
export async function loadOrThrow<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { status, body, headers } = errorBody(error);
    throw json(body, { status, headers });
  }
}
