import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";

// Real Shopify webhook payloads (tests/fixtures/shopify) and signed
// deliveries of them, as Shopify sends them.
const FIXTURES = path.resolve(__dirname, "../fixtures/shopify");

/** The fixture's raw text: ids above 2^53 stay exact. */
export function fixtureText(name: string): string {
  return readFileSync(path.join(FIXTURES, name), "utf8");
}

/**
 * A fixture with some fields changed, keeping the big integer ids exact: the
 * edits are applied to a parsed copy whose big integers were turned into
 * strings, and those are written back as bare numbers.
 */
export function fixtureWith(name: string, edit: (body: Record<string, any>) => void): string {
  const marker = "__bigint__";
  const text = fixtureText(name).replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, `$1"${marker}$2"`);
  const body = JSON.parse(text);
  edit(body);
  return JSON.stringify(body).replace(new RegExp(`"${marker}(-?\\d+)"`, "g"), "$1");
}

export function signWebhook(body: string, secret = API_SECRET_KEY) {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

export function webhookHeaders(topic: string, shop: string, body: string, over: Record<string, string> = {}) {
  return {
    "content-type": "application/json",
    "x-shopify-topic": topic,
    "x-shopify-shop-domain": shop,
    "x-shopify-api-version": "2026-07",
    "x-shopify-webhook-id": randomUUID(),
    "x-shopify-hmac-sha256": signWebhook(body),
    "x-shopify-triggered-at": new Date().toISOString(),
    ...over,
  };
}

/** An order's status URL on its shop's domain: what a real order body names its shop by. */
export function orderStatusUrl(shop: string) {
  return `https://${shop}/548380009/orders/123456abcd/authenticate?key=abcdefg`;
}
