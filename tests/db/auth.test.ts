import { beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv } from "../support/test-env";
import { useTestDatabase } from "../support/test-db";
import { useTestServer } from "../support/test-server";
import { HttpClient, location } from "../support/http-client";
import { buildAdvocate, buildCampaign, buildReferral, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { getDb } from "~/db.server";

// Behind a proxy (settings are read once): tests that spread attempts over
// addresses send X-Forwarded-For; the others send none and use the socket address.
applyTestEnv({ TRUST_PROXY: "1" });
useTestDatabase();
const server = useTestServer();

async function loggedIn(role: "admin" | "staff", email: string) {
  const client = new HttpClient(server.url);
  const res = await client.postForm(role === "admin" ? "/login" : "/staff/login", { email, password: TEST_PASSWORD });
  expect(res.status).toBe(302);
  expect(location(res)).toBe(`/${role}/dashboard`);
  return client;
}

describe("standalone admin login", () => {
  it("logs in, sets a signed httpOnly SameSite cookie, and reaches the dashboard", async () => {
    const shop = await buildShop();
    const admin = await buildUser(shop.id, { email: "owner@example.com" });
    const client = new HttpClient(server.url);
    const res = await client.postForm("/login", { email: "Owner@Example.com ", password: TEST_PASSWORD });
    expect(res.status).toBe(302);
    const cookie = res.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/__merchant_session=[^;]+\.[^;]+;/); // value.signature
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const dash = await client.get("/admin/dashboard");
    expect(dash.status).toBe(200);
    expect(await dash.text()).toContain("Total revenue");
    const row = await getDb().user.findUniqueOrThrow({ where: { id: admin.id } });
    expect(row.lastLoginAt).not.toBeNull();
  });

  it("ends at the door when the session row expired or the user was disabled", async () => {
    const shop = await buildShop();
    const admin = await buildUser(shop.id, { email: "owner@example.com" });
    const client = await loggedIn("admin", "owner@example.com");
    const db = getDb();
    const row = await db.userSession.findFirstOrThrow({ where: { userId: admin.id } });
    const login = "/login?redirectTo=%2Fadmin%2Fsales";

    await db.userSession.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(location(await client.get("/admin/sales"))).toBe(login);
    await db.userSession.update({ where: { id: row.id }, data: { expiresAt: row.expiresAt } });
    expect((await client.get("/admin/sales")).status).toBe(200);

    await db.user.update({ where: { id: admin.id }, data: { status: "disabled" } });
    expect(location(await client.get("/admin/sales"))).toBe(login);
  });

  it("refuses a wrong password with a clear message and no session", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = new HttpClient(server.url);
    const res = await client.postForm("/login", { email: "owner@example.com", password: "wrong password" });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Incorrect e-mail or password.");
    expect(client.cookieHeader()).toBe("");
    expect(await getDb().userSession.count()).toBe(0);
  });

  it("answers bad input with 422 field errors", async () => {
    const client = new HttpClient(server.url);
    const res = await client.postForm("/login", { email: "not-an-email", password: "" });
    expect(res.status).toBe(422);
    const body = await res.text();
    expect(body).toContain("Enter a valid e-mail address");
  });

  it("rate-limits repeated failures for one account, even with the right password after", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = new HttpClient(server.url);
    for (let i = 0; i < 5; i++) {
      const res = await client.postForm("/login", { email: "owner@example.com", password: `guess-${i}` });
      expect(res.status).toBe(401);
    }
    const blocked = await client.postForm("/login", { email: "owner@example.com", password: TEST_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await blocked.text()).toContain("Too many login attempts");
  });

  it("caps failed logins of one account from many addresses, for admins and staff", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@example.com" });
    await buildUser(shop.id, { email: "staffer@example.com", role: "staff" });
    for (const [path, email] of [
      ["/login", "owner@example.com"],
      ["/staff/login", "staffer@example.com"],
    ]) {
      for (let n = 0; n < 20; n++) {
        const res = await new HttpClient(server.url).postForm(
          path!,
          { email: email!, password: `guess-${n}` },
          { "x-forwarded-for": `203.0.113.${Math.floor(n / 4)}` },
        );
        expect(res.status, `${path} attempt ${n}`).toBe(401);
      }
      const blocked = await new HttpClient(server.url).postForm(
        path!,
        { email: email!, password: TEST_PASSWORD },
        { "x-forwarded-for": "203.0.113.200" },
      );
      expect(blocked.status, path).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await blocked.text()).toContain("Too many failed logins for this account");
    }
  });

  it("sends anonymous visitors to the role's login and / to /login", async () => {
    const client = new HttpClient(server.url);
    expect(location(await client.get("/"))).toBe("/login");
    expect(location(await client.get("/admin/sales"))).toBe("/login?redirectTo=%2Fadmin%2Fsales");
    expect(location(await client.get("/staff/sales"))).toBe("/staff/login?redirectTo=%2Fstaff%2Fsales");
    expect(location(await client.get("/admin/login"))).toBe("/login");
    // A way back over 2 KB is dropped, not carried in a 16 KB Location.
    const long = await client.get(`/admin/sales?q=${"x".repeat(16_000)}`);
    expect(location(long)).toBe("/login");
    expect(location(await client.get(`/admin/sales?q=${"x".repeat(1_000)}`))).toBe(
      `/login?redirectTo=${encodeURIComponent(`/admin/sales?q=${"x".repeat(1_000)}`)}`,
    );
  });

  it("returns to the page asked for after login, but never off the app", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = new HttpClient(server.url);
    const ok = await client.postForm("/login", {
      email: "owner@example.com",
      password: TEST_PASSWORD,
      redirectTo: "/admin/sales",
    });
    expect(location(ok)).toBe("/admin/sales");
    const other = new HttpClient(server.url);
    const evil = await other.postForm("/login", {
      email: "owner@example.com",
      password: TEST_PASSWORD,
      redirectTo: "//evil.example/x",
    });
    expect(location(evil)).toBe("/admin/dashboard");
  });

  it("logout ends the session on the server, not just in the browser", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = await loggedIn("admin", "owner@example.com");
    const stolen = client.cookieHeader();
    const out = await client.postForm("/logout", { role: "admin" });
    expect(location(out)).toBe("/login");
    const replay = await fetch(server.url("/admin/dashboard"), { headers: { cookie: stolen }, redirect: "manual" });
    expect(replay.status).toBe(302);
  });

  it("ignores a forged or garbage session cookie", async () => {
    const client = new HttpClient(server.url);
    client.setCookie("__merchant_session", "forged-id.badsignature");
    expect((await client.get("/admin/dashboard")).status).toBe(302);
  });
});

describe("roles and areas", () => {
  let staffEmail = "";
  beforeAll(() => {
    staffEmail = "staff@example.com";
  });

  it("lets staff use permitted areas and refuses the rest with 403 and no data", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { role: "staff", email: staffEmail, permissions: ["campaigns"] });
    const client = await loggedIn("staff", staffEmail);
    expect((await client.get("/staff/dashboard")).status).toBe(200);
    expect((await client.get("/staff/campaigns")).status).toBe(200);
    for (const path of [
      "/staff/sales",
      "/staff/settings",
      "/staff/settings/general",
      "/staff/plans",
      "/staff/paypal/connect",
    ]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(403);
      const html = await res.text();
      expect(html, path).toContain("You don&#x27;t have permission to view this page");
    }
  });

  it("never lets staff into /admin/... by URL, pages or actions", async () => {
    const shop = await buildShop({ needSelectPlan: null });
    await buildUser(shop.id, { role: "staff", email: staffEmail, permissions: ["campaigns", "settings"] });
    const client = await loggedIn("staff", staffEmail);
    for (const path of ["/admin/dashboard", "/admin/campaigns", "/admin/settings/general", "/admin/plans"]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(403);
      // The way back leads to the staff dashboard, not to another refusal.
      expect(await res.text(), path).toContain('href="/staff/dashboard"');
    }
    expect(location(await client.get("/staff/login"))).toBe("/staff/dashboard");
    expect(location(await client.get("/login"))).toBe("/staff/dashboard");
    const post = await client.postForm("/admin/plans/activate", { plan_id: "free" });
    expect(post.status).toBe(403);
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).pricingPlan).toBe("growth");
  });

  it("moves an admin who opens a /staff/ URL to the same /admin/ page", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = await loggedIn("admin", "owner@example.com");
    expect(location(await client.get("/staff/campaigns?x=1"))).toBe("/admin/campaigns?x=1");
  });

  it("redirects unknown paths to not-found and answers 404 for another shop's records", async () => {
    const shop = await buildShop();
    const other = await buildShop();
    const foreign = await buildCampaign(other.id);
    const own = await buildCampaign(shop.id);
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = await loggedIn("admin", "owner@example.com");
    expect(location(await client.get("/admin/no/such/page"))).toBe("/admin/not-found");
    expect((await client.get("/admin/not-found")).status).toBe(200);
    expect(location(await client.get("/admin/settings/nope"))).toBe("/admin/not-found");
    expect((await client.get(`/admin/campaigns/${own.id}`)).status).toBe(200);
    const res = await client.get(`/admin/campaigns/${foreign.id}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(foreign.name);
  });

  it("leaves out of the dashboard's data the pending counts of lists a staff member cannot open", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { role: "staff", email: "aff@example.com", permissions: ["affiliates"] });
    await buildUser(shop.id, { email: "owner@example.com" });
    const DATA = "?_data=routes%2F%24role.dashboard";
    const staff = await (await (await loggedIn("staff", "aff@example.com")).get(`/staff/dashboard${DATA}`)).json();
    expect(staff.pending).toEqual({ sales: null, affiliates: 0, commissions: null, commissionsMore: false });
    expect(staff.hasCampaigns).toBe(false);
    await buildCampaign(shop.id);
    const admin = await (await (await loggedIn("admin", "owner@example.com")).get(`/admin/dashboard${DATA}`)).json();
    expect(admin.pending).toEqual({ sales: 0, affiliates: 0, commissions: 0, commissionsMore: false });
    expect(admin.hasCampaigns).toBe(true);
  });

  it("answers unknown top-level paths with the 404 page, logged in or not, and serves a favicon", async () => {
    const anonymous = new HttpClient(server.url);
    for (const path of ["/foo", "/foo/bar", "/robots.txt", "/favicon.png"]) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(await res.text(), path).toContain("This page does not exist");
    }
    // Roles keep their redirects.
    expect(location(await anonymous.get("/admin"))).toMatch(/^\/login/);

    const shop = await buildShop();
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = await loggedIn("admin", "owner@example.com");
    const typo = await client.get("/admin-typo");
    expect(typo.status).toBe(404);
    expect(await typo.text()).toContain("This page does not exist");
    expect(location(await client.get("/admin"))).toBe("/admin/dashboard");

    const icon = await anonymous.get("/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    const bytes = new Uint8Array(await icon.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]); // an ICO file's header
    const page = await (await anonymous.get("/login")).text();
    expect(page).toMatch(/<link rel="icon" href="\/favicon\.ico"/);
    expect(page).toMatch(/<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml"/);
  });

  it("sends a shop that must pick a plan to /{role}/plans?installing=1 and lets it out after choosing", async () => {
    const shop = await buildShop({ pricingPlan: null, needSelectPlan: true });
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = await loggedIn("admin", "owner@example.com");
    expect(location(await client.get("/admin/sales"))).toBe("/admin/plans?installing=1");
    const plans = await client.get("/admin/plans?installing=1");
    expect(plans.status).toBe(200);
    expect(await plans.text()).toContain("Choose a plan to start using the app.");
    expect((await client.get("/admin/plans/activate?plan_id=nope")).status).toBe(404);
    const done = await client.postForm("/admin/plans/activate", { plan_id: "free" });
    expect(location(done)).toBe("/admin/dashboard");
    const row = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(row).toMatchObject({ pricingPlan: "free", needSelectPlan: null });
    expect((await client.get("/admin/sales")).status).toBe(200);
  });

  it("renders every admin route of the spec's tree without an error", async () => {
    const shop = await buildShop({ pricingPlan: "pro" });
    await buildUser(shop.id, { email: "owner@example.com" });
    const client = await loggedIn("admin", "owner@example.com");
    const campaign = await buildCampaign(shop.id);
    const creative = await getDb().creative.create({
      data: { shopId: shop.id, kind: "text", title: "Caption", body: "Shop here: {link}", destinationPath: "/" },
    });
    const referral = await buildReferral(shop.id, (await buildAdvocate(shop.id)).id);
    const paths = [
      "dashboard",
      "campaigns",
      `campaigns/${campaign.id}`,
      "affiliates",
      "sales",
      "payouts",
      "portals",
      "portals/landing",
      "referrals",
      "referrals/history",
      `referrals/${referral.id}`,
      "creatives",
      `creatives/${creative.id}`,
      "creatives/new?kind=video",
      "mails",
      "bonuses",
      "bonuses/new",
      "settings",
      "settings/general",
      "settings/branding",
      "settings/integrations",
      "settings/marketings",
      "settings/marketplace",
      "settings/payment",
      "settings/translations",
      "settings/networks",
      "settings/autotier",
      "settings/promote-link",
      "plans",
      "plans/activate?plan_id=pro",
      "contact-us",
      "help",
      "paypal/connect",
      "not-found",
    ];
    for (const path of paths) {
      const res = await client.get(`/admin/${path}`);
      expect(res.status, path).toBe(200);
    }
    expect(location(await client.get("/admin"))).toBe("/admin/dashboard");
  });
});
