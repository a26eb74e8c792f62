import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { adminClientFor } from "~/models/shopify/admin-client.server";
import { STORE_CREDIT_CREDIT } from "~/models/shopify/admin-operations";
import type { CustomerReferralsAnswer } from "~/models/referrals/customer-account-referrals.server";
import { SCOPES } from "~/shopify.server";
import { buildAdvocate, buildReferral } from "../support/builders";
import { buildReferralShop } from "../support/referrals";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// /api/customer-account/referrals: the "Refer a friend" page of the new
// customer accounts (extensions/referral-customer-account) asks for the
// signed-in customer's link, friends, rewards and store credit with Shopify's
// session token. Real HTTP to the built app, real tokens signed with the app
// secret, real rows, the store simulator for the store credit.

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer();

beforeEach(() => sim.reset());

// shopify-app-remix answers bots (Node's fetch says "node") with 410.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
const ACCOUNT_ORIGIN = "https://extensions.shopifycdn.com";
const SAM = "gid://shopify/Customer/9400000000"; // the simulator's first shopper
const PATH = "/api/customer-account/referrals";

type Ready = Extract<CustomerReferralsAnswer, { status: "ready" }>;

/** A customer account session token: `dest` the shop, `sub` the signed-in customer. */
async function accountToken(domain: string, claims: Record<string, unknown> = {}, secret = API_SECRET_KEY) {
  const { token } = await getJwt(domain.replace(/\.myshopify\.com$/, ""), API_KEY, secret, {
    iss: undefined,
    sid: undefined,
    dest: `https://${domain}`,
    sub: SAM,
    ...claims,
  });
  return token;
}

function call(method: "GET" | "POST", token?: string, query = "") {
  return fetch(server.url(`${PATH}${query}`), {
    method,
    headers: {
      "user-agent": BROWSER,
      origin: ACCOUNT_ORIGIN,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
}

let shopNumber = 0;
/** A shop with the program on and the app's offline session on the simulator. */
async function shopWithSession(options: { enabled?: boolean; plan?: string } = {}) {
  const domain = `account-${++shopNumber}-${Date.now()}.myshopify.com`;
  const shop = await buildReferralShop({
    domain,
    url: `https://shop-${shopNumber}.example`,
    pricingPlan: options.plan,
    program: { enabled: options.enabled ?? true, codeMode: "shared" },
    store: sim,
  });
  await getDb().session.update({ where: { id: `offline_${domain}` }, data: { scope: SCOPES.join(",") } });
  await getDb().shop.update({ where: { id: shop.id }, data: { currency: "EUR", timezone: "Europe/Berlin" } });
  return shop;
}

async function samAdvocate(shopId: string) {
  const advocate = await buildAdvocate(shopId, { email: "sam.shopper@example.net", friendCode: "SAM-10" });
  return getDb().referralAdvocate.update({ where: { id: advocate.id }, data: { customerGid: SAM } });
}

describe("who may ask", () => {
  it("answers the preflight from the extension's web worker with CORS headers that allow the token", async () => {
    const res = await fetch(server.url(PATH), {
      method: "OPTIONS",
      headers: {
        "user-agent": BROWSER,
        origin: ACCOUNT_ORIGIN,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });

  it("refuses a request without a session token: 401, readable across origins", async () => {
    const res = await call("GET");
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it.each([
    ["signed with another secret", (d: string) => accountToken(d, {}, "not-the-app-secret")],
    ["for another app", (d: string) => accountToken(d, { aud: "another-api-key" })],
    ["expired", (d: string) => accountToken(d, { exp: Date.now() / 1000 - 600, nbf: Date.now() / 1000 - 7200 })],
    ["naming no shop", (d: string) => accountToken(d, { dest: "https://evil.example" })],
  ])("refuses a token %s (401) and shows nothing", async (_label, make) => {
    const shop = await shopWithSession();
    await samAdvocate(shop.id);
    for (const method of ["GET", "POST"] as const) {
      const res = await call(method, await make(shop.domain));
      expect(res.status, method).toBe(401);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(JSON.stringify(await res.text())).not.toContain("SAM-10");
    }
  });

  it.each([
    ["the program is switched off", { enabled: false }, {}],
    ["the shop's plan has no refer-a-friend", { plan: "free" }, {}],
    ["the token names no customer", {}, { sub: undefined }],
  ])("answers {status: off} when %s", async (_label, options, claims) => {
    const shop = await shopWithSession(options);
    await samAdvocate(shop.id);
    const res = await call("GET", await accountToken(shop.domain, claims));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "off" });
  });
});

describe("what the page shows", () => {
  it("answers the customer's link, masked friends, rewards and store credit balance, in their language", async () => {
    const shop = await shopWithSession();
    const advocate = await samAdvocate(shop.id);
    await buildReferral(shop.id, advocate.id, {
      friendEmail: "julia.friend@example.org",
      status: "rewarded",
      rewardKind: "store_credit",
      rewardValue: 1000,
      rewardCurrency: "EUR",
      placedAt: new Date("2026-05-04T10:00:00Z"),
    });
    await buildReferral(shop.id, advocate.id, {
      friendEmail: "bo@mail.example",
      status: "pending",
      placedAt: new Date("2026-06-01T10:00:00Z"),
    });
    // Sam's store credit in Shopify: $12.50 (the simulated store's currency).
    const client = (await adminClientFor(shop.domain))!;
    const credit = await client.run(STORE_CREDIT_CREDIT, { id: SAM, amount: { amount: "12.50", currencyCode: "USD" } });
    expect(credit.data.storeCreditAccountCredit.userErrors).toEqual([]);

    const res = await call("GET", await accountToken(shop.domain), "?locale=de");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = (await res.json()) as Ready;
    expect(body).toMatchObject({
      status: "ready",
      lang: "de",
      dir: "ltr",
      advocate: { shareUrl: `https://shop-${shopNumber}.example/?invite=${advocate.token}`, friendCode: "SAM-10" },
      canJoin: false,
      rewarded: 1,
      friends: [
        { friend: "b***@ma***.example", date: "01.06.2026", status: "Ausstehend", reward: "" },
        { friend: "ju***@ex***.org", date: "04.05.2026", status: "Belohnt", reward: "10,00\u00a0€" },
      ],
      storeCredit: ["12,50\u00a0$"],
    });
    // Every text in German, from the widget's and account page's texts.
    expect(body.texts.storeCredit).toBe("Guthaben im Shop:");
    expect(body.texts.friends).toBe("Freunde, die Ihren Link genutzt haben");
    expect(Object.values(body.texts).every((t) => t && !t.startsWith("referFriend."))).toBe(true);
    // No friend's e-mail leaves the app whole.
    expect(JSON.stringify(body)).not.toMatch(/julia\.friend|bo@mail/);
  });

  it("says a zero balance when the customer has no store credit account, and no balance when Shopify cannot be asked", async () => {
    const shop = await shopWithSession();
    await samAdvocate(shop.id);
    const zero = (await (await call("GET", await accountToken(shop.domain), "?locale=en")).json()) as Ready;
    expect(zero.storeCredit).toEqual(["€0.00"]);
    expect(zero.friends).toEqual([]);
    expect(zero.texts.noFriends).toBe("No friend has used your link yet.");

    await getDb().session.deleteMany({ where: { shop: shop.domain } });
    const unknown = (await (await call("GET", await accountToken(shop.domain))).json()) as Ready;
    expect(unknown.status).toBe("ready");
    expect(unknown.storeCredit).toBeNull();
  });

  it("shows another shop's customer nothing of this shop's advocate", async () => {
    const mine = await shopWithSession();
    await samAdvocate(mine.id);
    const other = await shopWithSession();
    // Same customer id, other shop's token: the advocate is not theirs.
    const body = (await (await call("GET", await accountToken(other.domain))).json()) as Ready;
    expect(body).toMatchObject({ status: "ready", advocate: null, canJoin: false, friends: [], rewarded: 0 });
    expect(JSON.stringify(body)).not.toContain("SAM-10");
    // Another customer of the same shop: nothing of Sam's either.
    const stranger = (await (
      await call("GET", await accountToken(mine.domain, { sub: "gid://shopify/Customer/9400000077" }))
    ).json()) as Ready;
    expect(stranger).toMatchObject({ advocate: null, friends: [], rewarded: 0 });
  });

  it("never writes on GET; POST makes the link of a customer with an order, with that order's e-mail", async () => {
    const shop = await shopWithSession();
    await getDb().order.create({
      data: {
        shopId: shop.id,
        shopifyGid: "gid://shopify/Order/7700001",
        name: "#7700",
        customerEmail: "sam.shopper@example.net",
        customerGid: SAM,
        currency: "EUR",
        subtotal: 5000,
        total: 5500,
        placedAt: new Date(),
      },
    });
    const token = await accountToken(shop.domain);
    const before = (await (await call("GET", token)).json()) as Ready;
    expect(before).toMatchObject({ advocate: null, canJoin: true });
    expect(await getDb().referralAdvocate.count({ where: { shopId: shop.id } })).toBe(0);

    const res = await call("POST", token);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const after = (await res.json()) as Ready;
    const made = await getDb().referralAdvocate.findFirstOrThrow({ where: { shopId: shop.id } });
    expect(made).toMatchObject({ email: "sam.shopper@example.net", customerGid: SAM, source: "account" });
    expect(after.advocate?.shareUrl).toBe(`https://shop-${shopNumber}.example/?invite=${made.token}`);
    // Asking again makes no second advocate.
    await call("POST", token);
    expect(await getDb().referralAdvocate.count({ where: { shopId: shop.id } })).toBe(1);
  });

  it("makes no link for a customer without an order (422)", async () => {
    const shop = await shopWithSession();
    const res = await call("POST", await accountToken(shop.domain));
    expect(res.status).toBe(422);
    expect(await getDb().referralAdvocate.count({ where: { shopId: shop.id } })).toBe(0);
  });
});
