import { createHmac, timingSafeEqual } from "node:crypto";

// The signature Shopify puts on what it sends an app outside OAuth (Flow
// action requests, webhooks): X-Shopify-Hmac-Sha256, the base64 HMAC-SHA256
// of the raw body with the app's API secret, compared in constant time.

export function shopifyHmac(secret: string, rawBody: string | Buffer): string {
  return createHmac("sha256", secret).update(rawBody).digest("base64");
}

/** Whether `given` is the body's signature (false when missing). */
export function validShopifyHmac(secret: string, rawBody: string | Buffer, given: string | null | undefined): boolean {
  if (!given || !secret) return false;
  const expected = Buffer.from(shopifyHmac(secret, rawBody));
  const received = Buffer.from(given);
  return received.length === expected.length && timingSafeEqual(received, expected);
}
