import { createHmac } from "node:crypto";
import {
  API_KEY,
  API_SECRET_KEY,
  APP_URL,
  BASE64_HOST,
  RequestType,
  TEST_SHOP,
  TEST_SHOP_NAME,
  getJwt,
  setUpValidRequest,
  setUpValidSession,
} from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { applyTestEnv } from "../support/test-env";
import { useTestDatabase } from "../support/test-db";
import { useTestServer } from "../support/test-server";
import { HttpClient, location } from "../support/http-client";
import { useStoreSimulator } from "../support/store-simulator";
import { getDb } from "~/db.server";
import { SCOPES, shopify } from "~/shopify.server";

// Embedded (Shopify admin) authentication, end to end and offline: real
// session tokens and HMACs from Shopify's test helpers, real HTTP to the built
// app, and the store simulator for the token endpoint and Admin GraphQL.

applyTestEnv();
// Registered before the database and server hooks: the app reads
// SHOPIFY_ADMIN_BASE_URL once, when it first builds its Shopify config.
const sim = useStoreSimulator({ scopes: SCOPES });
useTestDatabase();
const server = useTestServer();

beforeEach(() => sim.reset());
const details = () => sim.store.shop(TEST_SHOP).details;
const requests = () => sim.store.requests;

// shopify-app-remix answers requests from bots (Node's fetch says "node") with
// 410, so the tests introduce themselves as the browser the admin runs in.
const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36" };

const OFFLINE_SESSION_ID = `offline_${TEST_SHOP}`;
const OTHER_SHOP = "other-shop.myshopify.com";

/** The offline session a previous install left, as the app's own storage writes it. */
async function storeOfflineSession(shop = TEST_SHOP) {
  const session = setUpValidSession({ shop, accessToken: sim.accessToken(shop), scope: SCOPES.join(",") });
  await shopify().sessionStorage.storeSession(session);
}

async function sessionToken(overrides: Record<string, unknown> = {}, secret = API_SECRET_KEY) {
  return (await getJwt(TEST_SHOP_NAME, API_KEY, secret, overrides)).token;
}

/** A valid token whose payload was edited afterwards, keeping the original signature. */
async function tamperedToken(shop: string) {
  const [header, payload, signature] = (await sessionToken()).split(".") as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
  const edited = { ...claims, iss: String(claims.iss).replace(TEST_SHOP, shop), dest: `https://${shop}` };
  return [header, Buffer.from(JSON.stringify(edited)).toString("base64url"), signature].join(".");
}

function bearer(token: string) {
  return { ...BROWSER, authorization: `Bearer ${token}` };
}

/** Signs OAuth callback parameters the way Shopify does (and @shopify/shopify-api checks). */
function signQuery(params: Record<string, string>, secret = API_SECRET_KEY): string {
  const sorted = new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
  const hmac = createHmac("sha256", secret).update(sorted.toString()).digest("hex");
  return new URLSearchParams({ ...params, hmac }).toString();
}

/** Scopes as granted: Shopify's library drops read_x next to write_x, which implies it. */
function grantedScopes(list: string): string[] {
  const scopes = list.split(",").filter(Boolean);
  const implied = scopes.flatMap((s) => (s.startsWith("write_") ? [s.replace(/^write_/, "read_")] : []));
  return [...new Set([...scopes, ...implied])].sort();
}

/** Whether a browser sends a cookie set with this Set-Cookie header to the given path (RFC 6265 path-match). */
function pathCovers(setCookie: string, path: string): boolean {
  const cookiePath = /;\s*path=([^;]*)/i.exec(setCookie)?.[1]?.trim() || "/";
  if (cookiePath === path || cookiePath === "/") return true;
  return path.startsWith(cookiePath.endsWith("/") ? cookiePath : `${cookiePath}/`);
}

async function errorOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toEqual(expect.any(String));
  expect(body.error.message).toEqual(expect.any(String));
  return body.error;
}

describe("GET /api/auth with a session token (embedded launch)", () => {
  it("installs the shop, fills its details from Shopify, and answers the shop record", async () => {
    await storeOfflineSession();
    const client = new HttpClient(server.url);
    const res = await client.get("/api/auth?embedded=1", bearer(await sessionToken()));
    expect(res.status).toBe(200);
    const record = (await res.json()) as Record<string, any>;
    expect(record).toMatchObject({
      domain: TEST_SHOP,
      name: details().name,
      url: details().primaryDomainUrl,
      version: expect.any(String),
      configuration: { admin_email: details().email, plan_name: details().planDisplayName },
      pricing: { plan: null, needSelectPlan: true },
      setting: { general: { language: "en" } },
    });
    expect(new Date(record.created_at).toISOString()).toBe(record.created_at);

    const rows = await getDb().shop.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      domain: TEST_SHOP,
      name: details().name,
      adminEmail: details().email,
      shopifyPlan: details().planDisplayName,
      currency: details().currencyCode,
      timezone: details().ianaTimezone,
      pricingPlan: null,
      needSelectPlan: true,
      uninstalledAt: null,
    });
    // The details came from the Admin GraphQL API, with the stored token.
    const graphql = sim.graphqlRequests();
    expect(graphql).toHaveLength(1);
    expect(graphql[0]).toMatchObject({
      shop: TEST_SHOP,
      headers: { "x-shopify-access-token": sim.accessToken(TEST_SHOP) },
      outcome: { operation: "query AppShopDetails", validated: true, errors: [] },
    });
    expect(graphql[0]!.path).toMatch(/^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/);
    // With a stored session there is no token exchange.
    expect(requests().filter((r) => r.path === "/admin/oauth/access_token")).toHaveLength(0);

    const again = await client.get("/api/auth?embedded=1", bearer(await sessionToken()));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(rows[0]!.id);
    expect(await getDb().shop.count()).toBe(1);
    // Known details are not fetched again.
    expect(sim.graphqlRequests()).toHaveLength(1);
  });

  it("installs the shop once when the admin's first requests arrive together", async () => {
    await storeOfflineSession();
    const client = new HttpClient(server.url);
    const responses = await Promise.all(
      Array.from({ length: 8 }, async () => client.get("/api/auth", bearer(await sessionToken()))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(1);
    expect(await getDb().shop.count()).toBe(1);
  });

  it("asks App Bridge to send a shop without a stored session through OAuth", async () => {
    // Token exchange is a future flag of shopify-app-remix that the app leaves
    // off: a shop is installed by the OAuth code flow of /auth, so an unknown
    // shop gets 401 with the URL to re-authorize at, and Shopify is not called.
    const res = await new HttpClient(server.url).get("/api/auth", bearer(await sessionToken()));
    expect(res.status).toBe(401);
    expect(res.headers.get("x-shopify-api-request-failure-reauthorize-url")).toBe(`${APP_URL}/auth?shop=${TEST_SHOP}`);
    expect(requests()).toHaveLength(0);
    expect(await getDb().shop.count()).toBe(0);
    expect(await getDb().session.count()).toBe(0);
  });

  it.each([
    ["a token altered to name another shop", () => tamperedToken(OTHER_SHOP)],
    ["an expired token", () => sessionToken({ exp: Date.now() / 1000 - 600, nbf: Date.now() / 1000 - 7200 })],
    ["a token signed with another secret", () => sessionToken({}, "some-other-app-secret")],
    ["a token for another app", () => sessionToken({ aud: "another-api-key" })],
  ])("refuses %s with 401 and installs nothing", async (_, makeToken) => {
    // Both shops are installed, so only the token itself can be the reason.
    await storeOfflineSession();
    await storeOfflineSession(OTHER_SHOP);
    const res = await new HttpClient(server.url).get("/api/auth", bearer(await makeToken()));
    expect(res.status).toBe(401);
    expect(await getDb().shop.count()).toBe(0);
    expect(requests()).toHaveLength(0);
  });
});

describe("embedded admin pages", () => {
  /** The URL the Shopify admin loads in its iframe, with a fresh id_token. */
  async function adminUrl(path: string) {
    const request = await setUpValidRequest(
      { type: RequestType.Admin, store: TEST_SHOP_NAME, apiKey: API_KEY, apiSecretKey: API_SECRET_KEY },
      new Request(`${APP_URL}${path}`),
    );
    const url = new URL(request.url);
    return url.pathname + url.search;
  }

  it("sends a new install to the plans page, then serves the page with App Bridge once a plan is chosen", async () => {
    await storeOfflineSession();
    const client = new HttpClient(server.url);
    const first = await client.get(await adminUrl("/admin/dashboard"), BROWSER);
    expect(first.status).toBe(302);
    const target = new URL(location(first), "http://app.invalid");
    expect(target.pathname).toBe("/admin/plans");
    expect(Object.fromEntries(target.searchParams)).toEqual({
      host: BASE64_HOST,
      shop: TEST_SHOP,
      embedded: "1",
      installing: "1",
    });
    const shop = await getDb().shop.findUniqueOrThrow({ where: { domain: TEST_SHOP } });
    expect(shop).toMatchObject({ needSelectPlan: true, pricingPlan: null });

    // The redirect drops the one-time id_token: the page bounces through App
    // Bridge, which reloads it with a fresh one.
    const bounce = await client.get(location(first), BROWSER);
    expect(bounce.status).toBe(302);
    const bounceUrl = new URL(location(bounce), "http://app.invalid");
    expect(bounceUrl.pathname).toBe("/auth/session-token");
    expect(bounceUrl.searchParams.get("shopify-reload")).toBe(`${APP_URL}/admin/plans?${target.searchParams}`);
    const bouncePage = await client.get(location(bounce), BROWSER);
    expect(bouncePage.status).toBe(200);
    expect(await bouncePage.text()).toContain(`data-api-key="${API_KEY}"`);
    const plans = await client.get(await adminUrl(`/admin/plans?installing=1`), BROWSER);
    expect(plans.status).toBe(200);
    expect(await plans.text()).toContain("Choose a plan to start using the app.");

    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free", needSelectPlan: null } });
    const page = await client.get(await adminUrl("/admin/dashboard"), BROWSER);
    expect(page.status).toBe(200);
    // The Shopify admin (and only it, for this shop) may frame the page.
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`frame-ancestors https://${TEST_SHOP} https://admin.shopify.com`);
    const html = await page.text();
    expect(html).toMatch(new RegExp(`<meta name="shopify-api-key" content="${API_KEY}"/>`));
    expect(html).toContain("https://cdn.shopify.com/shopifycloud/app-bridge.js");
    expect(await getDb().shop.count()).toBe(1);
  });

  it("sends a shop that has not installed the app out of the iframe, to OAuth", async () => {
    const client = new HttpClient(server.url);
    const res = await client.get(await adminUrl("/admin/dashboard"), BROWSER);
    expect(res.status).toBe(302);
    const exit = new URL(location(res), "http://app.invalid");
    expect(exit.pathname).toBe("/auth/exit-iframe");
    expect(exit.searchParams.get("exitIframe")).toBe(`/auth?shop=${TEST_SHOP}&host=${BASE64_HOST}`);
    const page = await client.get(location(res), BROWSER);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-api-key="${API_KEY}"`);
    expect(html).toContain(`window.open("${APP_URL}/auth?shop=${TEST_SHOP}&host=${BASE64_HOST}", "_top")`);
    expect(await getDb().shop.count()).toBe(0);
    expect(requests()).toHaveLength(0);
  });

  it("keeps standalone visitors out, without loading App Bridge", async () => {
    await storeOfflineSession();
    const client = new HttpClient(server.url);
    const res = await client.get("/admin/dashboard", BROWSER);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/login?redirectTo=%2Fadmin%2Fdashboard");
    const login = await client.get(location(res), BROWSER);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).not.toContain("shopify-api-key");
    expect(html).not.toContain("app-bridge.js");
    expect(await getDb().shop.count()).toBe(0);
  });
});

describe("OAuth authorization code flow", () => {
  /** Starts OAuth like the /auth screen does; answers the client (holding the state cookie) and the state. */
  async function beginOAuth() {
    const client = new HttpClient(server.url);
    const res = await client.get(`/api/auth/authorize?shop=${TEST_SHOP}`, BROWSER);
    expect(res.status).toBe(302);
    const target = new URL(res.headers.get("location") ?? "");
    return { client, res, target, state: target.searchParams.get("state") ?? "" };
  }

  it("sends a browser Shopify's library will not serve back to the /auth screen, not to an empty 410", async () => {
    // Headless Chromium names itself in its user agent, which the library takes for a bot.
    const headless = {
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/126.0 Safari/537.36",
    };
    const res = await new HttpClient(server.url).get(`/api/auth/authorize?shop=${TEST_SHOP}`, headless);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/auth?shop=${TEST_SHOP}&oauth_refused=1`);
    const screen = await new HttpClient(server.url).get(res.headers.get("location")!, headless);
    expect(screen.status).toBe(200);
    expect(screen.headers.get("content-type")).toContain("text/html");
  });

  function callbackParams(state: string): Record<string, string> {
    return {
      code: "fake-authorization-code",
      host: BASE64_HOST,
      shop: TEST_SHOP,
      state,
      timestamp: String(Math.trunc(Date.now() / 1000)),
    };
  }

  it("redirects to Shopify's authorization page with the app's key, scopes, callback and a state cookie", async () => {
    const { res, target, state } = await beginOAuth();
    expect(target.origin).toBe(`https://${TEST_SHOP}`);
    expect(target.pathname).toBe("/admin/oauth/authorize");
    expect(target.searchParams.get("client_id")).toBe(API_KEY);
    expect(target.searchParams.get("redirect_uri")).toBe(`${APP_URL}/auth`);
    expect(grantedScopes(target.searchParams.get("scope") ?? "")).toEqual(grantedScopes(SCOPES.join(",")));
    expect(state).toMatch(/^[0-9a-f]{32,}$/);
    // The offline (per-shop) token, not an online per-user one.
    expect(target.searchParams.get("grant_options[]")).toBe("");

    const cookies = res.headers.getSetCookie();
    const stateCookie = cookies.find((c) => c.startsWith(`shopify_app_state=${state};`));
    const signature = cookies.find((c) => c.startsWith("shopify_app_state.sig="));
    for (const cookie of [stateCookie, signature]) {
      expect(cookie).toBeDefined();
      // The browser must send it to GET /api/auth, which exchanges the code.
      expect(pathCovers(cookie!, "/api/auth"), cookie).toBe(true);
      expect(cookie).toMatch(/sameSite=lax/i);
    }
    expect(requests()).toHaveLength(0);
  });

  it("exchanges the code with Shopify, stores the offline session and answers the shop record", async () => {
    const { client, state } = await beginOAuth();
    const res = await client.get(`/api/auth?${signQuery(callbackParams(state))}`, BROWSER);
    expect(res.status).toBe(200);
    const record = (await res.json()) as Record<string, any>;
    expect(record).toMatchObject({
      domain: TEST_SHOP,
      url: details().primaryDomainUrl,
      configuration: { admin_email: details().email, plan_name: details().planDisplayName },
      pricing: { needSelectPlan: true },
      setting: { general: { language: "en" } },
    });

    const exchange = requests().filter((r) => r.path === "/admin/oauth/access_token");
    expect(exchange).toHaveLength(1);
    expect(exchange[0]).toMatchObject({
      method: "POST",
      shop: TEST_SHOP,
      body: { client_id: API_KEY, client_secret: API_SECRET_KEY, code: "fake-authorization-code" },
    });
    const session = await getDb().session.findUniqueOrThrow({ where: { id: OFFLINE_SESSION_ID } });
    expect(session).toMatchObject({ shop: TEST_SHOP, isOnline: false, accessToken: sim.accessToken(TEST_SHOP), state });
    expect(grantedScopes(session.scope ?? "")).toEqual(grantedScopes(SCOPES.join(",")));
    const shop = await getDb().shop.findUniqueOrThrow({ where: { domain: TEST_SHOP } });
    expect(shop).toMatchObject({ adminEmail: details().email, needSelectPlan: true });
    // The state is single-use: the callback clears the cookie where it was set.
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith("shopify_app_state="));
    expect(cleared).toMatch(/expires=Thu, 01 Jan 1970/i);
    expect(cleared).toMatch(/path=\/api\/auth(;|$)/i);
  });

  it.each([
    ["a wrong hmac", (state: string) => signQuery(callbackParams(state), "not-the-app-secret")],
    ["a state that does not match the cookie", () => signQuery(callbackParams("123456789012345"))],
    [
      "parameters changed after signing",
      (state: string) => signQuery(callbackParams(state)).replace("fake-authorization-code", "other-code"),
    ],
  ])("refuses a callback with %s: JSON error, no session", async (_, query) => {
    const { client, state } = await beginOAuth();
    const res = await client.get(`/api/auth?${query(state)}`, BROWSER);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await errorOf(res);
    expect(await getDb().session.count()).toBe(0);
    expect(await getDb().shop.count()).toBe(0);
    expect(requests()).toHaveLength(0);
  });

  it("refuses a callback without the state cookie", async () => {
    const { state } = await beginOAuth();
    const res = await new HttpClient(server.url).get(`/api/auth?${signQuery(callbackParams(state))}`, BROWSER);
    expect(res.status).toBe(401);
    await errorOf(res);
    expect(await getDb().session.count()).toBe(0);
  });

  it("answers 400 JSON to an authorize request for a shop that is not a myshopify.com domain", async () => {
    for (const shop of ["evil.example.com", "", "test-shop.myshopify.com.evil.example"]) {
      const res = await new HttpClient(server.url).get(`/api/auth/authorize?shop=${encodeURIComponent(shop)}`, BROWSER);
      expect(res.status, shop).toBe(400);
      expect((await errorOf(res)).code).toBe("bad_request");
      expect(res.headers.get("location")).toBeNull();
    }
  });
});

describe("GET /api/auth without authorization parameters", () => {
  it("answers 400 JSON", async () => {
    const res = await new HttpClient(server.url).get("/api/auth", BROWSER);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("bad_request");
    expect(await getDb().shop.count()).toBe(0);
  });
});
