import http from "node:http";
import { API_SECRET_KEY, APP_URL, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { startFakeDns, type FakeDns } from "../support/fake-dns";
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
// The app resolves TXT records through this server on loopback (DNS_SERVERS).
let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
  process.env.DNS_SERVERS = dns.address;
});
afterAll(() => dns.close());
const server = useTestServer();

const PORTAL_HOST = "affiliates.cool-gear.example";
const PASSWORD = "affiliate password 1";
let shop: Awaited<ReturnType<typeof buildShop>>;
let handle: string;

beforeEach(async () => {
  // A custom domain is a Pro feature.
  shop = await buildShop({ pricingPlan: "pro" });
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
    // Built from the verified domain (and the app's scheme), never from the Host header.
    expect(account.body).toContain(`https://${PORTAL_HOST}/signup?ref=TARIQVALE`);
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

const PORTALS = "/admin/portals?index&_data=routes%2F%24role.portals._index";

async function merchantOf(shopId: string) {
  const user = await buildUser(shopId);
  const c = new HttpClient(server.url);
  expect(location(await c.postForm("/login", { email: user.email, password: TEST_PASSWORD }))).toBe("/admin/dashboard");
  return c;
}

interface DomainState {
  host: string;
  status: "pending" | "verified";
  record: { name: string; value: string } | null;
}

async function domainState(c: HttpClient): Promise<DomainState | null> {
  const res = await c.get(PORTALS);
  expect(res.status).toBe(200);
  return ((await res.json()) as { domain: DomainState | null }).domain;
}

describe("verifying a custom domain (DNS TXT record)", () => {
  const NEW_HOST = "partners.cool-gear.example";

  it("serves nothing of the shop on a domain set under Portals until a TXT record proves it is the merchant's", async () => {
    const admin = await merchantOf(shop.id);
    expect((await admin.postForm(PORTALS, { portalDomain: NEW_HOST })).status).toBe(200);
    const pending = await hostRequest(NEW_HOST, "/");
    expect(pending.body).not.toContain("Cool Gear");
    expect(pending.status).not.toBe(200);
    expect((await hostRequest(NEW_HOST, "/signup", { form: signupForm })).status).not.toBe(200);
    expect(await getDb().affiliate.count()).toBe(0);

    const state = await domainState(admin);
    expect(state).toMatchObject({ host: NEW_HOST, status: "pending" });
    expect(state!.record!.name).toBe(`_affiliate-portal.${NEW_HOST}`);
    expect(state!.record!.value).toMatch(/^affiliate-portal-verification=[A-Za-z0-9_-]{20,}$/);

    // No record yet, then somebody else's: still pending, with a message saying what was looked for.
    const early = await admin.postForm(PORTALS, { intent: "verify" });
    expect(early.status).toBe(422);
    expect(JSON.stringify(await early.json())).toContain(state!.record!.name);
    dns.txt.set(state!.record!.name, ["affiliate-portal-verification=somebody-elses-token-0000000"]);
    expect((await admin.postForm(PORTALS, { intent: "verify" })).status).toBe(422);
    expect((await hostRequest(NEW_HOST, "/")).body).not.toContain("Cool Gear");

    dns.txt.set(state!.record!.name, ["v=spf1 -all", state!.record!.value]);
    const verified = await admin.postForm(PORTALS, { intent: "verify" });
    expect(verified.status).toBe(200);
    expect(await domainState(admin)).toMatchObject({ host: NEW_HOST, status: "verified" });
    const served = await hostRequest(NEW_HOST, "/");
    expect(served.status).toBe(200);
    expect(served.body).toContain("Earn with Cool Gear");
    // The old domain of this shop serves nothing any more.
    expect((await hostRequest(PORTAL_HOST, "/")).body).not.toContain("Cool Gear");
  });

  it("lets no shop hold a domain by asking first: the owner's proof takes it", async () => {
    const squatter = await buildShop({ pricingPlan: "pro" });
    await buildCampaign(squatter.id);
    const theirs = await merchantOf(squatter.id);
    expect((await theirs.postForm(PORTALS, { portalDomain: NEW_HOST })).status).toBe(200);
    expect((await hostRequest(NEW_HOST, "/")).body).not.toContain(squatter.name);

    const owner = await merchantOf(shop.id);
    expect((await owner.postForm(PORTALS, { portalDomain: NEW_HOST })).status).toBe(200);
    const ours = (await domainState(owner))!.record!;
    const squatters = (await domainState(theirs))!.record!;
    expect(ours.value).not.toBe(squatters.value);
    dns.txt.set(ours.name, [ours.value]);
    expect((await theirs.postForm(PORTALS, { intent: "verify" })).status).toBe(422);
    expect((await owner.postForm(PORTALS, { intent: "verify" })).status).toBe(200);
    expect((await hostRequest(NEW_HOST, "/")).body).toContain("Earn with Cool Gear");
  });

  it("moves a verified domain to the shop that proves it later, and the first shop sees it pending again", async () => {
    const other = await buildShop({ pricingPlan: "pro" });
    await buildCampaign(other.id);
    const otherAdmin = await merchantOf(other.id);
    // PORTAL_HOST is verified for `shop` (beforeEach); the other shop now proves it is theirs.
    expect((await otherAdmin.postForm(PORTALS, { portalDomain: PORTAL_HOST })).status).toBe(200);
    const record = (await domainState(otherAdmin))!.record!;
    dns.txt.set(record.name, [record.value]);
    expect((await otherAdmin.postForm(PORTALS, { intent: "verify" })).status).toBe(200);
    expect((await hostRequest(PORTAL_HOST, "/")).body).toContain(`Earn with ${other.name}`);
    expect(await domainState(await merchantOf(shop.id))).toMatchObject({ host: PORTAL_HOST, status: "pending" });
  });
});

describe("verifying when DNS does not answer", () => {
  it("answers 503 with Retry-After and keeps the domain pending", async () => {
    const { setPortalDomain, verifyPortalDomain } = await import("~/models/portal/portal-domain.server");
    await setPortalDomain(shop.id, "down.cool-gear.example");
    const timeout = Object.assign(new Error("queryTxt ETIMEOUT"), { code: "ETIMEOUT" });
    const error = await verifyPortalDomain(shop.id, () => Promise.reject(timeout)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unavailable", status: 503, headers: { "Retry-After": "60" } });
    expect(await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).toMatchObject({
      portalDomain: null,
      portalDomainPending: "down.cool-gear.example",
    });
  });
});

describe("password reset links", () => {
  let affiliateEmail: string;
  beforeEach(async () => {
    const campaign = await getDb().campaign.findFirstOrThrow({ where: { shopId: shop.id } });
    const affiliate = await buildAffiliate(shop.id, campaign.id, { email: "reset@aff.example" });
    affiliateEmail = affiliate.email;
  });

  const mailedLink = async () => {
    const mail = await getDb().outboxEmail.findFirstOrThrow({ where: { toAddress: affiliateEmail } });
    return new URL(/https?:\/\/\S+\/reset\?token=\S+/.exec(mail.text)![0]);
  };

  it("never takes the link's host from the request: a forged Host header gets the app's own link", async () => {
    const res = await hostRequest("evil.example", `/portal/${handle}/forgot`, { form: { email: affiliateEmail } });
    expect(res.status).toBe(200);
    const link = await mailedLink();
    expect(link.origin).toBe(new URL(APP_URL).origin);
    expect(link.pathname).toBe(`/portal/${handle}/reset`);
  });

  it("uses the verified custom domain when the request came in on it", async () => {
    expect((await hostRequest(PORTAL_HOST, "/forgot", { form: { email: affiliateEmail } })).status).toBe(200);
    const link = await mailedLink();
    expect(link.host).toBe(PORTAL_HOST);
    expect(link.pathname).toBe("/reset");
  });
});
