import { createHmac } from "node:crypto";
import "@shopify/shopify-api/adapters/web-api";
import { ApiVersion, LogSeverity, shopifyApi } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "./verify-webhook";

// Our hot-path verifier must give the answer Shopify's own library gives
// (shopify-api `webhooks.validate`, what `authenticate.webhook` runs) for
// every case: valid, tampered, wrong secret, malformed signature, missing
// headers.

const SECRET = "test-webhook-secret";
const lib = shopifyApi({
  apiKey: "key",
  apiSecretKey: SECRET,
  apiVersion: ApiVersion.July25,
  isEmbeddedApp: true,
  hostName: "localhost",
  scopes: [],
  logger: { level: LogSeverity.Error, log: async () => {} },
});

const BODY = JSON.stringify({
  id: 820982911946154508,
  admin_graphql_api_id: "gid://shopify/Order/820982911946154508",
  note: "caf\u00e9 \u2713",
});
const sign = (body: string, secret = SECRET) => createHmac("sha256", secret).update(Buffer.from(body)).digest("base64");
const base = () => ({
  "x-shopify-hmac-sha256": sign(BODY),
  "x-shopify-topic": "orders/create",
  "x-shopify-shop-domain": "shop-a.myshopify.com",
  "x-shopify-api-version": "2026-07",
  "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
  "content-type": "application/json",
});

const cases: { name: string; body?: string; headers: Record<string, string>; valid: boolean }[] = [
  { name: "a correctly signed webhook", headers: base(), valid: true },
  { name: "a body changed after signing", body: BODY.replace("caf", "cat"), headers: base(), valid: false },
  {
    name: "signed with another secret",
    headers: { ...base(), "x-shopify-hmac-sha256": sign(BODY, "other") },
    valid: false,
  },
  {
    name: "a signature that is not base64",
    headers: { ...base(), "x-shopify-hmac-sha256": "not base64 at all!" },
    valid: false,
  },
  {
    name: "a truncated signature",
    headers: { ...base(), "x-shopify-hmac-sha256": sign(BODY).slice(0, -4) },
    valid: false,
  },
  { name: "no signature", headers: (({ "x-shopify-hmac-sha256": _h, ...rest }) => rest)(base()), valid: false },
  { name: "no topic", headers: (({ "x-shopify-topic": _t, ...rest }) => rest)(base()), valid: false },
  { name: "no webhook id", headers: (({ "x-shopify-webhook-id": _w, ...rest }) => rest)(base()), valid: false },
  {
    name: "no shop domain and no API version",
    headers: (({ "x-shopify-shop-domain": _d, "x-shopify-api-version": _v, ...rest }) => rest)(base()),
    valid: false,
  },
  { name: "an empty body, signed", body: "", headers: { ...base(), "x-shopify-hmac-sha256": sign("") }, valid: false },
];

describe("verifyWebhook agrees with shopify-api's webhooks.validate", () => {
  it.each(cases)("$name", async ({ body = BODY, headers, valid }) => {
    const ours = verifyWebhook(SECRET, Buffer.from(body), headers);
    const theirs = await lib.webhooks.validate({
      rawBody: body,
      rawRequest: new Request("https://app.example/webhooks", { method: "POST", headers, body: body || undefined }),
    });
    expect(ours.valid).toBe(valid);
    expect(theirs.valid).toBe(valid);
    if (!ours.valid && !theirs.valid) {
      expect(ours.reason).toBe(theirs.reason);
      if (ours.reason === "missing_headers" && "missingHeaders" in theirs) {
        expect([...ours.missingHeaders].sort()).toEqual(
          theirs.missingHeaders.map((h: string) => h.toLowerCase()).sort(),
        );
      }
    }
    if (ours.valid && theirs.valid) {
      expect(ours).toMatchObject({
        topic: "orders/create",
        domain: theirs.domain,
        apiVersion: theirs.apiVersion,
        webhookId: theirs.webhookId,
      });
    }
  });
});
