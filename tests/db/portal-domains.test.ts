import http from "node:http";
import { API_SECRET_KEY, APP_URL, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildCampaign, buildShop } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The three ways into a shop's affiliate portal, over real HTTP against the
// running app: the app domain (/portal/{handle}/...), a merchant's custom
// domain (routed by the Host header), and the shop's own domain through
// Shopify's app proxy (signed query; tampered requests refused).
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const PORTAL_HOST = "affiliates.cool-gear.example";
const PASSWORD = "affiliate password 1";
let shop: Awaited<ReturnType<typeof buildShop>>;
let handle: string;

beforeEach(async () => {
  shop = await buildShop();
  handle = shop.domain.replace(".myshopify.com", "");
  await getDb().shop.update({ where: { id: shop.id }, data: { name: "Cool Gear", portalDomain: PORTAL_HOST } });
  const campaign = await buildCampaign(shop.id);
  await getDb().campaign.update({ where: { id: campaign.id }, data: { autoApproveAffiliates: true } });
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with a chosen Host header (fetch does not let a test set one). */
function hostRequest(
  host: string,
  path: string,
  init: { method?: string; form?: Record<string, string>; cookie?: string } = {},
): Promise<RawResponse> {
  const target = new URL(server.url(path));
  const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method ?? (body ? "POST" : "GET"),
        headers: {
          host,
          ...(body
            ? { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) }
            : {}),
          ...(init.cookie ? { cookie: init.cookie } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const cookieOf = (res: RawResponse) => (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");

/** The URL Shopify's app proxy would call for https://{shop}/apps/affiliate{subpath}. */
async function proxyUrl(subpath: string, shopDomain = shop.domain, extra: Record<string, string> = {}) {
  const url = new URL(server.url(`/proxy${subpath}`));
  url.searchParams.set("path_prefix", "/apps/affiliate");
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  const signed = await setUpValidRequest(
    { type: RequestType.Public, store: shopDomain.replace(/\.myshopify\.com$/, ""), apiSecretKey: API_SECRET_KEY },
    new Request(url),
  );
  const out = new URL(signed.url);
  return out.pathname + out.search;
}

const signupForm = {
  firstName: "Tariq",
  lastName: "Vale",
  email: "tariq@aff.example",
  password: PASSWORD,
  terms: "on",
};

describe("the app domain", () => {
  it("serves landing, sign-up and login under /portal/{handle}/ with links that stay there", async () => {
    const landing = await fetch(server.url(`/portal/${handle}/`));
    expect(landing.status).toBe(200);
    const html = await landing.text();
    expect(html).toContain("Earn with Cool Gear");
    expect(html).toContain(`href="/portal/${handle}/signup"`);
    // Server-rendered only: no app bundle, so the same page works on every way in.
    expect(html).not.toContain("/build/entry.client");
    for (const page of ["signup", "login", "forgot"])
      expect((await fetch(server.url(`/portal/${handle}/${page}`))).status, page).toBe(200);
  });
});

describe("a custom domain (Host header)", () => {
  it("answers the portal at the domain root, with links at the root", async () => {
    const res = await hostRequest(PORTAL_HOST, "/");
    expect(res.status).toBe(200);
    expect(res.body).toContain("Earn with Cool Gear");
    expect(res.body).toContain('href="/signup"');
    expect(res.body).not.toContain(`/portal/${handle}`);
    const signup = await hostRequest(PORTAL_HOST, "/signup");
    expect(signup.status).toBe(200);
    expect(signup.body).toContain('action="/signup"');
  });

  it("signs up, logs in and opens the account area on that domain", async () => {
    const created = await hostRequest(PORTAL_HOST, "/signup", { form: signupForm });
    expect(created.status).toBe(200);
    expect(await getDb().affiliate.count({ where: { shopId: shop.id, email: "tariq@aff.example" } })).toBe(1);
    const login = await hostRequest(PORTAL_HOST, "/login", {
      form: { email: "tariq@aff.example", password: PASSWORD },
    });
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe("/account");
    const cookie = cookieOf(login);
    const account = await hostRequest(PORTAL_HOST, "/account/links", { cookie });
    expect(account.status).toBe(200);
    expect(account.body).toContain("TARIQVALE");
    expect(account.body).toContain(`http://${PORTAL_HOST}/signup?ref=TARIQVALE`);
    // Logged out, the account area sends to this domain's own login page.
    const anonymous = await hostRequest(PORTAL_HOST, "/account");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toBe("/login?redirectTo=%2Faccount");
  });

  it("does not let another shop's affiliate session in on this shop's domain", async () => {
    const other = await buildShop();
    const otherCampaign = await buildCampaign(other.id);
    await getDb().campaign.update({ where: { id: otherCampaign.id }, data: { autoApproveAffiliates: true } });
    const c = new HttpClient(server.url);
    const otherHandle = other.domain.replace(".myshopify.com", "");
    await c.postForm(`/portal/${otherHandle}/signup`, signupForm);
    await c.postForm(`/portal/${otherHandle}/login`, { email: signupForm.email, password: PASSWORD });
    expect((await c.get("/account")).status).toBe(200);
    const res = await hostRequest(PORTAL_HOST, "/account", { cookie: c.cookieHeader() });
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/login/);
  });

  it("leaves unknown hosts to the app as usual", async () => {
    const res = await hostRequest("unknown.example", "/signup");
    expect(res.status).not.toBe(200);
    expect(res.body).not.toContain("Cool Gear");
    const root = await hostRequest("unknown.example", "/");
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe("/login");
  });
});

describe("the shop's domain through the app proxy", () => {
  it("serves the portal pages for a signed request, with links under /apps/affiliate and assets from the app", async () => {
    const res = await fetch(server.url(await proxyUrl("/")));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Earn with Cool Gear");
    expect(html).toContain('href="/apps/affiliate/signup"');
    expect(html).toContain(`href="${APP_URL}/build/`);
    const signup = await fetch(server.url(await proxyUrl("/signup")));
    expect(signup.status).toBe(200);
    expect(await signup.text()).toContain('action="/apps/affiliate/signup"');
  });

  it("refuses unsigned and tampered requests (400) and changes nothing", async () => {
    expect((await fetch(server.url(`/proxy/?shop=${shop.domain}`))).status).toBe(400);
    const signed = new URL(server.url(await proxyUrl("/signup")));
    const other = await buildShop();
    signed.searchParams.set("shop", other.domain);
    expect((await fetch(signed)).status).toBe(400);
    const tamperedSignature = new URL(server.url(await proxyUrl("/signup")));
    tamperedSignature.searchParams.set("signature", "0".repeat(64));
    const post = await fetch(tamperedSignature, { method: "POST", body: new URLSearchParams(signupForm) });
    expect(post.status).toBe(400);
    expect(await getDb().affiliate.count()).toBe(0);
  });

  it("signs up through the proxy, and a login hands over to the account area once", async () => {
    const created = await fetch(server.url(await proxyUrl("/signup")), {
      method: "POST",
      body: new URLSearchParams(signupForm),
    });
    expect(created.status).toBe(200);
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(1);
    const login = await fetch(server.url(await proxyUrl("/login")), {
      method: "POST",
      body: new URLSearchParams({ email: signupForm.email, password: PASSWORD }),
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    // Shopify passes no cookies through the proxy: a one-time link to the custom domain instead.
    const to = new URL(login.headers.get("location")!);
    expect(to.origin).toBe(`https://${PORTAL_HOST}`.replace("https", new URL(APP_URL).protocol.replace(":", "")));
    expect(login.headers.get("set-cookie")).toBeNull();
    const c = new HttpClient(server.url);
    const handover = await c.get(to.pathname + to.search);
    expect(handover.status).toBe(302);
    expect(location(handover)).toBe("/account");
    expect((await c.get("/account")).status).toBe(200);
    expect((await new HttpClient(server.url).get(to.pathname + to.search)).status).toBe(400);
  });

  it("answers 404 for a signed request from a shop that is not installed", async () => {
    expect((await fetch(server.url(await proxyUrl("/", "not-installed.myshopify.com")))).status).toBe(404);
  });

  it("still serves the click endpoint at /proxy/click", async () => {
    const res = await fetch(server.url(await proxyUrl("/click", shop.domain, { code: "NOPE" })));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ click_id: null });
  });
});
