import { json } from "@remix-run/node";
import { AppError } from "../../lib/errors";
import { handleApi } from "../../lib/http.server";
import { ID_PATTERN } from "../api/schemas";
import { notFound } from "./require-merchant.server";

// Plumbing of the admin's own route modules (not the REST API): ids that
// cannot exist are 404 before any query, and domain errors become JSON
// answers with their status and field messages, which the pages show.

/** The route's id parameter, or a thrown 404 when it could not be an id. */
export function recordId(id: string | undefined): string {
  if (!id || !ID_PATTERN.test(id)) throw notFound();
  return id;
}

/** Runs a loader's read; "not found" (another shop's id included) becomes the 404 page. */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw notFound(error.message);
    throw error;
  }
}

/**
 * Runs an action: a thrown Response (redirect, 403, 404) passes through, an
 * AppError answers {"error": {code, message, fields?}} with its status.
 */
export async function adminAction(fn: () => Promise<unknown>): Promise<Response> {
  const result = await handleApi(fn);
  if (result instanceof Response) return result;
  return json(result);
}
