import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { shopifyHmac, validShopifyHmac } from "./shopify-hmac";

const SECRET = "shpss_test_secret";
const BODY = '{"shop_id":"1","action_run_id":"run-1","properties":{"affiliate":"ANNA7"}}';
const GOOD = createHmac("sha256", SECRET).update(BODY).digest("base64");

describe("validShopifyHmac", () => {
  it.each([
    ["the body's signature", BODY, GOOD, true],
    ["no signature", BODY, null, false],
    ["an empty signature", BODY, "", false],
    ["another body's signature", `${BODY} `, GOOD, false],
    ["the hex digest instead of base64", BODY, createHmac("sha256", SECRET).update(BODY).digest("hex"), false],
    ["another secret's signature", BODY, createHmac("sha256", "other").update(BODY).digest("base64"), false],
    ["a truncated signature", BODY, GOOD.slice(0, 20), false],
  ] as const)("%s → %s", (_what, body, given, valid) => {
    expect(validShopifyHmac(SECRET, body, given)).toBe(valid);
  });

  it("signs what it checks, and refuses everything with no secret", () => {
    expect(shopifyHmac(SECRET, BODY)).toBe(GOOD);
    expect(validShopifyHmac("", BODY, createHmac("sha256", "").update(BODY).digest("base64"))).toBe(false);
  });
});
