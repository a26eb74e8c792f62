import { getConfig } from "../../config.server";
import type { components, operations } from "./payouts-api.generated";
import { meteredPaypal } from "../ops/metrics.server";

// The PayPal REST calls the app makes. Request and response bodies of the
// Payouts API are typed from PayPal's own OpenAPI file
// (payouts-api.generated.ts, `npm run paypal:types`); the OAuth token and the
// webhook-signature check are not in that file, so their few fields are
// typed here from PayPal's documentation. Nothing is fetched at run time but
// the calls themselves. PAYPAL_API_BASE_URL replaces PayPal's host (tests,
// the demo's local fake).

type Schemas = components["schemas"];
export type CreatePayoutRequest = NonNullable<operations["payouts.post"]["requestBody"]>["content"]["application/json"];
export type CreatePayoutResponse = Schemas["payout"];
export type PayoutBatch = Schemas["payout_batch"];
export type PayoutBatchItem = Schemas["payout_batch_items"];
export type PaypalErrorBody = Schemas["error"];
export type TransactionStatus = Schemas["transaction_enum"];
export type PaypalMode = "sandbox" | "live";

export interface PaypalCredentials {
  mode: PaypalMode;
  clientId: string;
  clientSecret: string;
}

/** POST /v1/oauth2/token's answer (client credentials grant). */
export interface PaypalToken {
  access_token: string;
  token_type: string;
  expires_in: number;
  app_id?: string;
  scope?: string;
  nonce?: string;
}

/** The headers PayPal signs a webhook with, and the body of verify-webhook-signature. */
export interface WebhookSignatureCheck {
  auth_algo: string;
  cert_url: string;
  transmission_id: string;
  transmission_sig: string;
  transmission_time: string;
  webhook_id: string;
  webhook_event: unknown;
}

const HOSTS: Record<PaypalMode, string> = {
  sandbox: "https://api-m.sandbox.paypal.com",
  live: "https://api-m.paypal.com",
};

export function paypalBaseUrl(mode: PaypalMode): string {
  return getConfig().PAYPAL_API_BASE_URL ?? HOSTS[mode];
}

/**
 * A PayPal call that did not succeed. `retryable`: a timeout, a lost
 * connection, 429 or 5xx — the same request may be sent again (PayPal
 * documents that a Payouts POST is safe to repeat with the same
 * sender_batch_id after a 5xx).
 */
export class PaypalError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly body: Partial<PaypalErrorBody> | null,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "PaypalError";
  }
}

// Tokens live for hours; one per app and credentials is reused until close to its end.
const tokens = new Map<string, { token: string; until: number }>();

async function call<T>(url: string, init: RequestInit & { timeoutMs?: number }): Promise<T> {
  const timeoutMs = init.timeoutMs ?? getConfig().PAYPAL_TIMEOUT_MS;
  let response: Response;
  try {
    response = await meteredPaypal(url, init, () => fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) }));
  } catch (error) {
    const what = error instanceof Error && error.name === "TimeoutError" ? "timed out" : "could not be reached";
    throw new PaypalError(`PayPal ${what} (${new URL(url).pathname})`, null, null, true);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = (body && typeof body === "object" ? body : null) as Partial<PaypalErrorBody> | null;
    const retryable = response.status >= 500 || response.status === 429;
    const detail = err?.name ? `${err.name}: ${err.message ?? ""}` : `HTTP ${response.status}`;
    throw new PaypalError(`PayPal answered ${response.status} (${detail.trim()})`, response.status, err, retryable);
  }
  return body as T;
}

/** POST /v1/oauth2/token: proves the credentials and tells which app they belong to. */
export async function requestToken(credentials: PaypalCredentials): Promise<PaypalToken> {
  const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64");
  const token = await call<PaypalToken>(`${paypalBaseUrl(credentials.mode)}/v1/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    },
    body: "grant_type=client_credentials",
  });
  if (!token || typeof token.access_token !== "string") {
    throw new PaypalError("PayPal's token answer has no access_token", 200, null, false);
  }
  return token;
}

async function bearer(credentials: PaypalCredentials): Promise<string> {
  const key = `${paypalBaseUrl(credentials.mode)}|${credentials.clientId}|${credentials.clientSecret}`;
  const cached = tokens.get(key);
  if (cached && cached.until > Date.now()) return cached.token;
  const token = await requestToken(credentials);
  tokens.set(key, { token: token.access_token, until: Date.now() + Math.max(0, token.expires_in - 120) * 1000 });
  return token.access_token;
}

async function authorized<T>(
  credentials: PaypalCredentials,
  path: string,
  init: RequestInit & { timeoutMs?: number },
): Promise<T> {
  const headers = {
    accept: "application/json",
    "content-type": "application/json",
    authorization: `Bearer ${await bearer(credentials)}`,
    ...(init.headers as Record<string, string> | undefined),
  };
  try {
    return await call<T>(`${paypalBaseUrl(credentials.mode)}${path}`, { ...init, headers });
  } catch (error) {
    // An expired or revoked token: forget it so the next try asks for a new one.
    if (error instanceof PaypalError && error.status === 401) {
      for (const key of tokens.keys()) if (key.includes(`|${credentials.clientId}|`)) tokens.delete(key);
    }
    throw error;
  }
}

/**
 * POST /v1/payments/payouts. PayPal-Request-Id is the sender_batch_id too:
 * a repeated request is answered like the first one where PayPal keeps the
 * key, and refused as a duplicate where it does not (see duplicateOf).
 */
export function createPayout(
  credentials: PaypalCredentials,
  body: CreatePayoutRequest,
  options: { timeoutMs?: number } = {},
) {
  return authorized<CreatePayoutResponse>(credentials, "/v1/payments/payouts", {
    method: "POST",
    headers: { "paypal-request-id": body.sender_batch_header.sender_batch_id ?? "" },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
  });
}

/** GET /v1/payments/payouts/{payout_batch_id}, one page of its items. */
export function getPayoutBatch(credentials: PaypalCredentials, payoutBatchId: string, page = 1, pageSize = 1000) {
  const query = new URLSearchParams({ page: String(page), page_size: String(pageSize), total_required: "true" });
  return authorized<PayoutBatch>(credentials, `/v1/payments/payouts/${encodeURIComponent(payoutBatchId)}?${query}`, {
    method: "GET",
  });
}

/**
 * POST /v1/notifications/verify-webhook-signature: PayPal checks that it sent
 * this webhook. The event goes in exactly as received (`rawEvent`, the
 * request body): re-serialized JSON could differ from what PayPal signed.
 */
export async function verifyWebhookSignature(
  credentials: PaypalCredentials,
  check: Omit<WebhookSignatureCheck, "webhook_event">,
  rawEvent: string,
) {
  const head = JSON.stringify(check);
  const body = `${head.slice(0, -1)},"webhook_event":${rawEvent}}`;
  const answer = await authorized<{ verification_status?: string }>(
    credentials,
    "/v1/notifications/verify-webhook-signature",
    { method: "POST", body },
  );
  return answer?.verification_status === "SUCCESS";
}

/** A webhook as PayPal's Webhooks Management API (v1) returns it; typed by hand (its file is not kept here). */
export interface PaypalWebhook {
  id: string;
  url: string;
  event_types: { name: string }[];
}

/** POST /v1/notifications/webhooks: subscribes `url` to the events (201 with the webhook). */
export function createWebhook(credentials: PaypalCredentials, url: string, eventTypes: string[]) {
  return authorized<PaypalWebhook>(credentials, "/v1/notifications/webhooks", {
    method: "POST",
    body: JSON.stringify({ url, event_types: eventTypes.map((name) => ({ name })) }),
  });
}

/** GET /v1/notifications/webhooks: the app's webhooks. */
export async function listWebhooks(credentials: PaypalCredentials): Promise<PaypalWebhook[]> {
  const answer = await authorized<{ webhooks?: PaypalWebhook[] }>(credentials, "/v1/notifications/webhooks", {
    method: "GET",
  });
  return answer?.webhooks ?? [];
}

const PAYOUT_LINK = /\/v1\/payments\/payouts\/([^/?#]+)/;

/**
 * When PayPal refused a POST because the sender_batch_id was used before
 * (within 30 days), the payout_batch_id of that first batch, from the link
 * PayPal puts in the error; null for any other answer.
 */
export function duplicateOf(error: unknown): { payoutBatchId: string | null } | null {
  if (!(error instanceof PaypalError) || !error.body || error.status === null || error.status >= 500) return null;
  // PayPal's duplicate answer carries the link to the first batch inside the
  // detail ("link"), which the OpenAPI file's error schema does not list.
  type Detail = { field?: string; issue?: string; link?: { href?: string }[] };
  const body = error.body as Omit<PaypalErrorBody, "details"> & { details?: Detail[] };
  const details = body.details ?? [];
  const aboutBatchId = details.some(
    (d) =>
      /sender_batch_id/i.test(d.field ?? "") ||
      /sender_batch_id|duplicate/i.test(d.issue ?? "") ||
      /DUPLICATE/.test(body.name ?? ""),
  );
  if (!aboutBatchId) return null;
  const hrefs = [...details.flatMap((d) => d.link ?? []), ...(body.links ?? [])].map((l) => l?.href ?? "");
  for (const href of hrefs) {
    const match = PAYOUT_LINK.exec(href);
    if (match) return { payoutBatchId: decodeURIComponent(match[1]!) };
  }
  return { payoutBatchId: null };
}
