import type { MessageRef } from "../i18n/messages";

// One error type for the whole app. Domain code throws AppError with a code;
// the edge (routes, API) maps the code to an HTTP status and a JSON body
// {"error": {"code", "message", "fields"?}}. A message may be a translation
// key made with msg() (app/i18n/messages.ts): the door sends it as English
// and, to pages, with the key beside it. Anything that is not an AppError
// becomes a 500 with a generic message: internals never reach the client.

export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  // A service outside the app (DNS, Shopify) did not answer: try again later.
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldErrors = Record<string, string>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    /** English (API clients read this). */
    message: string;
    fields?: FieldErrors;
    /** Pages only: the translation keys of `message` and `fields` (app/i18n/messages.ts). */
    messageKey?: MessageRef;
    fieldKeys?: Record<string, MessageRef>;
  };
}

/**
 * An action's answer to a plain HTML form (portal and account pages): on
 * error, the error and the values typed (never passwords or tokens), so the
 * page can show the form again filled in.
 */
export type FormActionData = Partial<ErrorBody> & { values?: Record<string, string> };

/**
 * Work the machine stopped, not the request: a lock held too long, every
 * template thread busy, a render out of time. Nothing was changed and the
 * same request may succeed when asked again, so the door answers 503 with
 * Retry-After instead of a 500. Errors say so with `retryLater: true`.
 */
export function asksToRetryLater(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { retryLater?: unknown }).retryLater === true;
}

export const GENERIC_ERROR_MESSAGE = "Something went wrong, please try again.";

export function errorBody(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    return {
      status: error.status,
      headers: error.headers,
      body: { error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } },
    };
  }
  return { status: 500, body: { error: { code: "internal", message: GENERIC_ERROR_MESSAGE } } };
}

/** Turns zod issues into {field path: message}. */
export function fieldErrorsFromZod(issues: { path: (string | number)[]; message: string }[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.join(".") || "_";
    if (!fields[key]) fields[key] = issue.message;
  }
  return fields;
}
