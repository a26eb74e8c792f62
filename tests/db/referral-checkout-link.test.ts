import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import { applyTestEnv } from "../support/test-env";
import { useTestDatabase } from "../support/test-db";
import { useTestServer } from "../support/test-server";
import { buildShop } from "../support/builders";
import { getDb } from "~/db.server";
import { DEFAULT_REFERRAL_PROGRAM } from "~/models/referrals/program-settings";
import { emailKey } from "~/models/referrals/email-key";

// POST /api/checkout/referral-link: the thank-you / order-status block asks
// for the buyer's share link with Shopify's session token. Real HTTP to the
// built app, real tokens signed with the app secret, real rows.

applyTestEnv();
useTestDatabase();
const server = useTestServer();

// shopify-app-remix answers bots (Node's fetch says "node") with 410; the
// block runs in a browser's web worker.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
const CHECKOUT_ORIGIN = "https://extensions.shopifycdn.com";

/** A checkout session token as Shopify issues it: `dest` is the bare shop domain, `sub` the customer when logged in. */
async function checkoutToken(domain: string, claims: Record<string, unknown> = {}, secret = API_SECRET_KEY) {
  const { token } = await getJwt(domain.replace(/\.myshopify\.com$/, ""), API_KEY, secret, {
    iss: undefined,
    sid: undefined,
    sub: undefined,
    dest: domain,
    ...claims,
  });
  return token;
}

function post(body: unknown, token?: string, extra: Record<string, string> = {}) {
  return fetch(server.url("/api/checkout/referral-link"), {
    method: "POST",
    headers: {
      "user-agent": BROWSER,
      origin: CHECKOUT_ORIGIN,
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extra,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

let orderNumber = 1000;
async function shopWithProgram(options: { enabled?: boolean; plan?: string } = {}) {
  const shop = await buildShop({ pricingPlan: options.plan ?? "growth" });
  const referrals = { ...DEFAULT_REFERRAL_PROGRAM, enabled: options.enabled ?? true };
  await getDb().shop.update({
    where: { id: shop.id },
    data: { settings: JSON.stringify({ referrals }), currency: "EUR" },
  });
  return shop;
}

async function recordOrder(shopId: string, email: string | null, customerGid: string | null = null) {
  const number = ++orderNumber;
  const gid = `gid://shopify/Order/${5_000_000 + number}`;
  await getDb().order.create({
    data: {
      shopId,
      shopifyGid: gid,
      name: `#${number}`,
      customerEmail: email,
      customerGid,
      currency: "EUR",
      subtotal: 5000,
      total: 5500,
      placedAt: new Date(),
    },
  });
  return gid;
}

describe("POST /api/checkout/referral-link: who may ask", () => {
  it("answers the preflight from the checkout's web worker with CORS headers that allow the token", async () => {
    const res = await fetch(server.url("/api/checkout/referral-link"), {
      method: "OPTIONS",
      headers: {
        "user-agent": BROWSER,
        origin: CHECKOUT_ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });

  it("refuses a request without a session token (401, readable across origins) and stores nothing", async () => {
    const shop = await shopWithProgram();
    const orderId = await recordOrder(shop.id, "ana@example.com");
    const res = await post({ orderId, email: "ana@example.com" });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await getDb().referralAdvocate.count()).toBe(0);
  });

  it.each([
    ["signed with another secret", (d: string) => checkoutToken(d, {}, "not-the-app-secret")],
    ["for another app", (d: string) => checkoutToken(d, { aud: "another-api-key" })],
    ["expired", (d: string) => checkoutToken(d, { exp: Date.now() / 1000 - 600, nbf: Date.now() / 1000 - 7200 })],
    ["naming no shop", (d: string) => checkoutToken(d, { dest: "https://evil.example" })],
  ])("refuses a token %s (401)", async (_label, make) => {
    const shop = await shopWithProgram();
    const orderId = await recordOrder(shop.id, "ana@example.com");
    const res = await post({ orderId, email: "ana@example.com" }, await make(shop.domain));
    expect(res.status).toBe(401);
    expect(await getDb().referralAdvocate.count()).toBe(0);
  });

  it.each([
    ["an order id that is not an order GID", { orderId: "12345", email: "ana@example.com" }],
    ["no order id", { email: "ana@example.com" }],
    ["an e-mail that is not one", { orderId: "gid://shopify/Order/1", email: "not-an-email" }],
    ["a field the block never sends", { orderId: "gid://shopify/Order/1", shop: "other.myshopify.com" }],
  ])("answers 422 for %s", async (_label, body) => {
    const shop = await shopWithProgram();
    const res = await post(body, await checkoutToken(shop.domain));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
  });

  it("answers 400 for a body that is not JSON, and 405 for GET", async () => {
    const shop = await shopWithProgram();
    expect((await post("{not json", await checkoutToken(shop.domain))).status).toBe(400);
    const res = await fetch(server.url("/api/checkout/referral-link"), { headers: { "user-agent": BROWSER } });
    expect(res.status).toBe(405);
  });
});

describe("POST /api/checkout/referral-link: what the block shows", () => {
  it.each([
    ["the program is switched off", { enabled: false }],
    ["the shop's plan has no refer-a-friend", { plan: "free" }],
  ])("answers {status: off} when %s", async (_label, options) => {
    const shop = await shopWithProgram(options);
    const orderId = await recordOrder(shop.id, "ana@example.com");
    const res = await post({ orderId, email: "ana@example.com" }, await checkoutToken(shop.domain));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "off" });
    expect(await getDb().referralAdvocate.count()).toBe(0);
  });

  it("answers {status: off} for a shop the app does not know or that uninstalled it", async () => {
    const shop = await shopWithProgram();
    await getDb().shop.update({ where: { id: shop.id }, data: { uninstalledAt: new Date() } });
    const orderId = await recordOrder(shop.id, "ana@example.com");
    const gone = await post({ orderId, email: "ana@example.com" }, await checkoutToken(shop.domain));
    expect(await gone.json()).toEqual({ status: "off" });
    const unknown = await post({ orderId }, await checkoutToken("never-installed.myshopify.com"));
    expect(await unknown.json()).toEqual({ status: "off" });
  });

  it("answers pending while the order's webhook has not been recorded yet", async () => {
    const shop = await shopWithProgram();
    const res = await post(
      { orderId: "gid://shopify/Order/987654", email: "ana@example.com" },
      await checkoutToken(shop.domain),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "pending", retryAfterMs: 3000 });
  });

  it("refuses a guest whose e-mail did not place the order (403), and shows nothing without an e-mail", async () => {
    const shop = await shopWithProgram();
    const orderId = await recordOrder(shop.id, "ana@example.com");
    const token = await checkoutToken(shop.domain);
    const wrong = await post({ orderId, email: "mallory@example.com" }, token);
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get("access-control-allow-origin")).toBe("*");
    expect(await (await post({ orderId }, token)).json()).toEqual({ status: "off" });
    expect(await getDb().referralAdvocate.count()).toBe(0);
  });

  it("refuses a logged-in customer asking about someone else's order (403)", async () => {
    const shop = await shopWithProgram();
    const orderId = await recordOrder(shop.id, "ana@example.com", "gid://shopify/Customer/11");
    const res = await post(
      { orderId, email: "ana@example.com" },
      await checkoutToken(shop.domain, { sub: "gid://shopify/Customer/22" }),
    );
    expect(res.status).toBe(403);
    expect(await getDb().referralAdvocate.count()).toBe(0);
  });

  it("does not look at another shop's orders", async () => {
    const shop = await shopWithProgram();
    const other = await shopWithProgram();
    const orderId = await recordOrder(other.id, "ana@example.com");
    const res = await post({ orderId, email: "ana@example.com" }, await checkoutToken(shop.domain));
    expect(await res.json()).toEqual({ status: "pending", retryAfterMs: 3000 });
  });

  // Needs STOREFRONT's ensureAdvocate (skipped, loudly, until it is merged).
  it("gives a guest whose e-mail placed the order their share link, once, from the thank-you page", async () => {
    const shop = await shopWithProgram();
    const orderId = await recordOrder(shop.id, "Ana.Buyer+shop@example.com");
    const token = await checkoutToken(shop.domain);
    const res = await post({ orderId, email: "ana.buyer@EXAMPLE.com", firstName: "Mallory" }, token);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Record<string, any>;
    const advocate = await getDb().referralAdvocate.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(advocate).toMatchObject({ emailKey: emailKey("ana.buyer@example.com"), source: "thank_you" });
    // A guest's claimed name is not taken.
    expect(advocate.firstName).not.toBe("Mallory");
    expect(answer).toMatchObject({
      status: "ready",
      shareUrl: `${shop.url}/?invite=${advocate.token}`,
      friendOffer: { type: "percentage", value: 1000, currency: "EUR" },
    });
    const again = (await (await post({ orderId, email: "ana.buyer@example.com" }, token)).json()) as any;
    expect(again.shareUrl).toBe(answer.shareUrl);
    expect(await getDb().referralAdvocate.count()).toBe(1);
  });

  it("gives a logged-in customer the link of their order's e-mail, linked to their customer id", async () => {
    const shop = await shopWithProgram();
    const customer = "gid://shopify/Customer/31";
    const orderId = await recordOrder(shop.id, "bo@example.com", customer);
    const res = await post(
      { orderId, email: "someone-else@example.com", firstName: "Bo" },
      await checkoutToken(shop.domain, { sub: customer }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ready", firstName: "Bo" });
    const advocate = await getDb().referralAdvocate.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(advocate).toMatchObject({ email: "bo@example.com", customerGid: customer, source: "thank_you" });
  });
});
