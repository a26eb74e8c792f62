import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The affiliate account area over real HTTP on the app domain: sign-up,
// login (throttled), logout, password reset links, and isolation between
// affiliates, shops, and merchant and affiliate sessions.
// Behind a proxy (settings are read once): tests that spread attempts over
// addresses send X-Forwarded-For; the others send none and use the socket address.
applyTestEnv({ TRUST_PROXY: "1" });
useTestDatabase();
const server = useTestServer();

const PASSWORD = "affiliate password 1";
let shop: Awaited<ReturnType<typeof buildShop>>;
let campaign: Awaited<ReturnType<typeof buildCampaign>>;
let handle: string;

beforeEach(async () => {
  shop = await buildShop();
  handle = shop.domain.replace(".myshopify.com", "");
  campaign = await buildCampaign(shop.id);
});

const client = () => new HttpClient(server.url);

function signupForm(over: Record<string, string> = {}) {
  return {
    firstName: "Nora",
    lastName: "Quinn",
    email: "nora@aff.example",
    password: PASSWORD,
    paypalEmail: "",
    website: "",
    terms: "on",
    ...over,
  };
}

async function signUp(c: HttpClient, over: Record<string, string> = {}, h = handle) {
  return c.postForm(`/portal/${h}/signup`, signupForm(over));
}

async function logIn(c: HttpClient, email: string, password = PASSWORD, h = handle) {
  return c.postForm(`/portal/${h}/login`, { email, password });
}

async function withPassword(affiliateId: string) {
  const { hashPassword } = await import("~/models/auth/password.server");
  await getDb().affiliate.update({ where: { id: affiliateId }, data: { passwordHash: await hashPassword(PASSWORD) } });
}

describe("sign-up", () => {
  it("creates a pending affiliate on a campaign without auto-approval, and says so", async () => {
    const res = await signUp(client());
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("pending approval");
    const row = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "nora@aff.example" } });
    expect(row).toMatchObject({ status: "pending", campaignId: campaign.id, firstName: "Nora", parentId: null });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    // No terms link on the sign-up page: no terms to accept.
    expect(row.termsAcceptedAt).toBeNull();
    expect(row.referralCode).toBe("NORAQUINN");
  });

  it("approves at once when the campaign auto-approves affiliates", async () => {
    await getDb().campaign.update({ where: { id: campaign.id }, data: { autoApproveAffiliates: true } });
    const res = await signUp(client());
    expect(await res.text()).toContain("Your account is ready");
    expect((await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id } })).status).toBe("approved");
  });

  it("refuses bad input with field messages and creates nothing", async () => {
    const res = await signUp(client(), {
      email: "not-an-email",
      password: "short",
      terms: "",
      website: "javascript:alert(1)",
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("Enter a valid e-mail address");
    expect(html).toContain("Use at least 10 characters");
    expect(html).toContain("Enter a full address starting with https://");
    expect(await getDb().affiliate.count()).toBe(0);
  });

  it("keeps e-mails unique per shop (case-insensitively), but not across shops", async () => {
    expect((await signUp(client())).status).toBe(200);
    const again = await signUp(client(), { email: "NORA@aff.example" });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain("already exists");
    const other = await buildShop();
    await buildCampaign(other.id);
    expect((await signUp(client(), {}, other.domain.replace(".myshopify.com", ""))).status).toBe(200);
    expect(await getDb().affiliate.count()).toBe(2);
  });

  it("makes the recruit link's affiliate the upline (MLM), only for an approved affiliate of the same shop", async () => {
    const upline = await buildAffiliate(shop.id, campaign.id, { referralCode: "UPLINE1" });
    await signUp(client(), { ref: "upline1" });
    expect((await getDb().affiliate.findFirstOrThrow({ where: { email: "nora@aff.example" } })).parentId).toBe(
      upline.id,
    );
    const other = await buildShop();
    const otherCampaign = await buildCampaign(other.id);
    await buildAffiliate(other.id, otherCampaign.id, { referralCode: "FOREIGN1" });
    await signUp(client(), { email: "x@aff.example", ref: "FOREIGN1" });
    expect((await getDb().affiliate.findFirstOrThrow({ where: { email: "x@aff.example" } })).parentId).toBeNull();
  });

  it("asks the merchant's custom questions and required fields", async () => {
    await getDb().portalPage.create({
      data: {
        shopId: shop.id,
        kind: "signup",
        draft: "{}",
        published: JSON.stringify({
          form: {
            paypalEmail: "required",
            questions: [{ id: "audience", label: "Who is your audience?", required: true }],
            termsUrl: "https://store.example/terms",
          },
        }),
      },
    });
    const page = await (await client().get(`/portal/${handle}/signup`)).text();
    expect(page).toContain("Who is your audience?");
    const missing = await signUp(client(), { terms: "" });
    expect(missing.status).toBe(422);
    const html = await missing.text();
    expect(html).toContain("Enter your PayPal e-mail address");
    expect(html).toContain("Answer this question");
    // With a terms link, the terms must be accepted.
    expect(html).toContain("Accept the program terms");
    expect((await signUp(client(), { paypalEmail: "pay@aff.example", q_audience: "Runners" })).status).toBe(200);
    const row = await getDb().affiliate.findFirstOrThrow({ where: { email: "nora@aff.example" } });
    expect(row.paypalEmail).toBe("pay@aff.example");
    expect(JSON.parse(row.signupAnswers).answers).toEqual({ audience: "Runners" });
    expect(row.termsAcceptedAt).not.toBeNull();
  });

  it("limits sign-ups from one address (429 with Retry-After), before any password is hashed", async () => {
    for (let n = 0; n < 10; n++) expect((await signUp(client(), { email: `a${n}@aff.example` })).status).toBe(200);
    const blocked = await signUp(client(), { email: "a10@aff.example" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(await blocked.text()).toContain("Too many sign-ups");
    expect(await getDb().affiliate.count()).toBe(10);
    // Another shop's portal is no way around it.
    const other = await buildShop();
    await buildCampaign(other.id);
    expect(
      (await signUp(client(), { email: "a11@aff.example" }, other.domain.replace(".myshopify.com", ""))).status,
    ).toBe(429);
    // Bad input is answered as before and costs nothing.
    expect((await signUp(client(), { email: "not an address" })).status).toBe(422);
  });

  it("answers 404 for a shop that does not exist", async () => {
    expect((await client().get("/portal/no-such-shop/signup")).status).toBe(404);
    expect((await signUp(client(), {}, "no-such-shop")).status).toBe(404);
  });
});

describe("login and logout", () => {
  it("logs in, opens the account area, and logs out (the session row is gone)", async () => {
    await signUp(client());
    const c = client();
    const res = await logIn(c, "nora@aff.example");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/account");
    const account = await c.get("/account");
    expect(account.status).toBe(200);
    const html = await account.text();
    expect(html).toContain("Nora");
    expect(html).toContain("pending approval");
    expect(await getDb().affiliateSession.count()).toBe(1);
    const out = await c.postForm("/account/logout", {});
    expect(location(out)).toBe(`/portal/${handle}/login`);
    expect(await getDb().affiliateSession.count()).toBe(0);
    expect(location(await c.get("/account"))).toBe(`/portal/${handle}/login?redirectTo=%2Faccount`);
    expect(location(await c.get(`/account/sales?q=${"x".repeat(16_000)}`))).toBe(`/portal/${handle}/login`);
  });

  it("ends at the door when the session row expired, the affiliate was denied, or the row names another shop", async () => {
    await signUp(client());
    const c = client();
    expect(location(await logIn(c, "nora@aff.example"))).toBe("/account");
    expect((await c.get("/account")).status).toBe(200);
    const login = `/portal/${handle}/login?redirectTo=%2Faccount`;
    const db = getDb();
    const row = await db.affiliateSession.findFirstOrThrow();

    await db.affiliateSession.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(location(await c.get("/account"))).toBe(login);
    await db.affiliateSession.update({ where: { id: row.id }, data: { expiresAt: row.expiresAt } });
    expect((await c.get("/account")).status).toBe(200);

    await db.affiliate.update({ where: { id: row.affiliateId }, data: { status: "denied" } });
    expect(location(await c.get("/account"))).toBe(login);
    await db.affiliate.update({ where: { id: row.affiliateId }, data: { status: "pending" } });
    expect((await c.get("/account")).status).toBe(200);

    const other = await buildShop();
    await db.affiliateSession.update({
      where: { id: row.id },
      data: { data: JSON.stringify({ affiliateId: row.affiliateId, shopId: other.id }) },
    });
    expect(location(await c.get("/account"))).toBe(login);
  });

  it("refuses a wrong password, and a denied affiliate even with the right one", async () => {
    const aff = await buildAffiliate(shop.id, campaign.id, { email: "den@aff.example", status: "denied" });
    await withPassword(aff.id);
    const wrong = await logIn(client(), "den@aff.example", "wrong password!");
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain("Incorrect e-mail or password.");
    // The form comes back with the e-mail typed, never the password.
    expect(html).toContain('value="den@aff.example"');
    expect(html).not.toContain("wrong password!");
    const denied = await logIn(client(), "den@aff.example");
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain("not active");
  });

  it("is rate-limited per account and address (429 with Retry-After), even for the right password", async () => {
    await signUp(client());
    for (let i = 0; i < 5; i++)
      expect((await logIn(client(), "nora@aff.example", `wrong ${i} password`)).status).toBe(401);
    const blocked = await logIn(client(), "nora@aff.example");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("caps failed logins of one account from many addresses, so guessing cannot be spread out", async () => {
    await signUp(client());
    const from = (n: number) => ({ "x-forwarded-for": `198.51.100.${n}` });
    // Four wrong passwords from each of five addresses: under the per-address limit every time.
    for (let n = 0; n < 20; n++) {
      const res = await client().postForm(
        `/portal/${handle}/login`,
        { email: "nora@aff.example", password: `guess ${n}` },
        from(Math.floor(n / 4)),
      );
      expect(res.status, `attempt ${n}`).toBe(401);
    }
    const blocked = await client().postForm(
      `/portal/${handle}/login`,
      { email: "nora@aff.example", password: PASSWORD },
      from(99),
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await blocked.text()).toContain("Too many failed logins for this account");
    // Another account of the shop is not affected.
    await signUp(client(), { email: "otto@aff.example" });
    expect(location(await logIn(client(), "otto@aff.example"))).toBe("/account");
  });

  it("only lets an affiliate log in to their own shop's portal", async () => {
    await signUp(client());
    const other = await buildShop();
    const res = await logIn(client(), "nora@aff.example", PASSWORD, other.domain.replace(".myshopify.com", ""));
    expect(res.status).toBe(401);
  });

  it("never redirects off the account area after login", async () => {
    await signUp(client());
    const c = client();
    const res = await c.postForm(`/portal/${handle}/login`, {
      email: "nora@aff.example",
      password: PASSWORD,
      redirectTo: "//evil.example/account",
    });
    expect(location(res)).toBe("/account");
    const ok = await client().postForm(`/portal/${handle}/login`, {
      email: "nora@aff.example",
      password: PASSWORD,
      redirectTo: "/account/sales",
    });
    expect(location(ok)).toBe("/account/sales");
  });
});

describe("password reset by e-mail link", () => {
  async function requestReset(email: string) {
    const res = await client().postForm(`/portal/${handle}/forgot`, { email });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("If an account exists");
    await drainJobs();
  }

  async function resetLink(email: string) {
    const mail = await getDb().outboxEmail.findFirstOrThrow({
      // The reset e-mail, not the sign-up's notification to the same address.
      where: { toAddress: email, kind: "affiliate.reset" },
      orderBy: { createdAt: "desc" },
    });
    // Handled by its job; without SMTP_URL, a shop other than the demo gets no printed copy.
    expect(mail.status).toBe("unsent");
    const match = /https?:\/\/\S+\/reset\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(match, mail.text).not.toBeNull();
    return { url: new URL(match![0]), token: match![1]! };
  }

  it("sends a single-use link that sets a new password and ends the old sessions", async () => {
    await signUp(client());
    const old = client();
    await logIn(old, "nora@aff.example");
    await requestReset("nora@aff.example");
    const { url, token } = await resetLink("nora@aff.example");
    expect(url.pathname).toBe(`/portal/${handle}/reset`);
    expect((await client().get(url.pathname + url.search)).status).toBe(200);
    const c = client();
    const done = await c.postForm(`/portal/${handle}/reset`, {
      token,
      password: "brand new password",
      confirm: "brand new password",
    });
    expect(location(done)).toBe(`/portal/${handle}/login?reset=1`);
    expect((await old.get("/account")).status).toBe(302);
    expect(location(await logIn(client(), "nora@aff.example", "brand new password"))).toBe("/account");
    // Single use: the same link again changes nothing.
    const again = await c.postForm(`/portal/${handle}/reset`, {
      token,
      password: "third password 123",
      confirm: "third password 123",
    });
    expect(again.status).toBe(400);
    expect((await client().get(url.pathname + url.search)).status).toBe(400);
    expect((await logIn(client(), "nora@aff.example", "third password 123")).status).toBe(401);
  });

  it("refuses an expired link", async () => {
    await signUp(client());
    const { requestPasswordReset } = await import("~/models/affiliate-account/password-reset.server");
    const { portalShopSelect } = await import("~/models/portal/portal-context.server");
    const portalShop = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id }, select: portalShopSelect });
    await requestPasswordReset({ shop: portalShop, way: "app", handle }, "nora@aff.example", "10.0.0.1", -1000);
    await drainJobs();
    const { token } = await resetLink("nora@aff.example");
    const res = await client().postForm(`/portal/${handle}/reset`, {
      token,
      password: "brand new password",
      confirm: "brand new password",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("has expired");
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    await requestReset("nobody@aff.example");
    expect(await getDb().outboxEmail.count()).toBe(0);
  });

  it("does not accept another shop's reset link", async () => {
    await signUp(client());
    await requestReset("nora@aff.example");
    const { token } = await resetLink("nora@aff.example");
    const other = await buildShop();
    const res = await client().postForm(`/portal/${other.domain.replace(".myshopify.com", "")}/reset`, {
      token,
      password: "brand new password",
      confirm: "brand new password",
    });
    expect(res.status).toBe(400);
  });
});

describe("isolation", () => {
  async function saleOf(affiliateId: string, shopId = shop.id) {
    return getDb().order.create({
      data: {
        shopId,
        shopifyGid: `gid://shopify/Order/${Math.floor(Math.random() * 1e12)}`,
        name: `#${Math.floor(Math.random() * 9000) + 1000}`,
        currency: "USD",
        subtotal: 5000,
        total: 5500,
        affiliateId,
        attributionSource: "link",
        placedAt: new Date(),
      },
    });
  }

  it("shows an affiliate their own sale, and 404 for another affiliate's or another shop's", async () => {
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    const them = await buildAffiliate(shop.id, campaign.id, { email: "them@aff.example" });
    await withPassword(me.id);
    const mine = await saleOf(me.id);
    const theirs = await saleOf(them.id);
    const other = await buildShop();
    const otherAff = await buildAffiliate(other.id, (await buildCampaign(other.id)).id);
    const foreign = await saleOf(otherAff.id, other.id);
    const c = client();
    await logIn(c, "me@aff.example");
    const own = await c.get(`/account/sales/${mine.id}`);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain(mine.name);
    const list = await (await c.get("/account/sales")).text();
    expect(list).toContain(mine.name);
    expect(list).not.toContain(theirs.name);
    expect((await c.get(`/account/sales/${theirs.id}`)).status).toBe(404);
    expect((await c.get(`/account/sales/${foreign.id}`)).status).toBe(404);
    expect((await c.get(`/account/sales/nope%20nope`)).status).toBe(404);
  });

  it("shows the affiliate's dates in the shop's time zone and says which", async () => {
    await getDb().shop.update({ where: { id: shop.id }, data: { timezone: "America/Los_Angeles" } });
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    await withPassword(me.id);
    // 03:30 UTC on New Year's Day is still New Year's Eve in Los Angeles.
    const sale = await saleOf(me.id);
    await getDb().order.update({ where: { id: sale.id }, data: { placedAt: new Date("2026-01-01T03:30:00Z") } });
    const c = client();
    await logIn(c, "me@aff.example");
    for (const path of ["/account/sales", `/account/sales/${sale.id}`]) {
      const html = await (await c.get(path)).text();
      expect(html, path).toContain("Times in America/Los_Angeles");
      expect(html, path).toContain("Dec 31, 2025");
      expect(html, path).not.toContain("2026-01-01");
    }
    for (const path of ["/account", "/account/payouts", "/account/recruits"]) {
      expect(await (await c.get(path)).text(), path).toContain("Times in America/Los_Angeles");
    }
  });

  it("keeps merchant and affiliate sessions apart in both directions", async () => {
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    await withPassword(me.id);
    const admin = await buildUser(shop.id, { email: "admin@shop.example" });
    const merchant = client();
    const login = await merchant.postForm("/login", { email: admin.email, password: TEST_PASSWORD });
    expect(location(login)).toBe("/admin/dashboard");
    // A merchant cookie does not open the account area ...
    expect((await merchant.get("/account")).status).toBe(302);
    expect(location(await merchant.get("/account"))).not.toBe("/account");
    // ... not even under the affiliate cookie's name.
    const merchantValue = merchant.cookieHeader().match(/__merchant_session=([^;]+)/)![1]!;
    const forged = client();
    forged.setCookie("__affiliate_session", merchantValue);
    expect((await forged.get("/account")).status).toBe(302);
    // An affiliate session does not open the admin, nor its value as a merchant cookie.
    const aff = client();
    await logIn(aff, "me@aff.example");
    expect((await aff.get("/account")).status).toBe(200);
    expect(location(await aff.get("/admin/dashboard"))).toMatch(/^\/login/);
    const affValue = aff.cookieHeader().match(/__affiliate_session=([^;]+)/)![1]!;
    const forged2 = client();
    forged2.setCookie("__merchant_session", affValue);
    expect(location(await forged2.get("/admin/dashboard"))).toMatch(/^\/login/);
  });

  it("keeps the dashboard and balance to the affiliate's own commissions", async () => {
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    const them = await buildAffiliate(shop.id, campaign.id, { email: "them@aff.example" });
    await withPassword(me.id);
    for (const [aff, amount, status] of [
      [me.id, 1234, "approved"],
      [me.id, 500, "pending"],
      [them.id, 99999, "approved"],
    ] as const) {
      const order = await saleOf(aff);
      await getDb().commission.create({
        data: { shopId: shop.id, orderId: order.id, affiliateId: aff, amount, currency: "USD", status },
      });
    }
    const c = client();
    await logIn(c, "me@aff.example");
    const payouts = await (await c.get("/account/payouts")).text();
    expect(payouts).toContain("$12.34");
    expect(payouts).toContain("$5.00");
    expect(payouts).not.toContain("$999.99");
    const dash = await (await c.get("/account?range=all")).text();
    expect(dash).toContain("$12.34");
    expect(dash).not.toContain("$999.99");
  });

  it("shows the balance per currency, never one sum across currencies", async () => {
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    await withPassword(me.id);
    for (const [amount, currency, status] of [
      [1234, "USD", "approved"],
      [500, "EUR", "approved"],
      [300, "USD", "pending"],
    ] as const) {
      const order = await saleOf(me.id);
      await getDb().commission.create({
        data: { shopId: shop.id, orderId: order.id, affiliateId: me.id, amount, currency, status },
      });
    }
    const c = client();
    await logIn(c, "me@aff.example");
    const payouts = await (await c.get("/account/payouts")).text();
    expect(payouts).toContain("€5.00 + $12.34");
    expect(payouts).not.toContain("$17.34");
    expect(payouts).toContain("$3.00");
    const dash = await (await c.get("/account?range=all")).text();
    expect(dash).toContain("€5.00 + $12.34");
  });

  it("renders every account page for a logged-in affiliate without a server error", async () => {
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    await withPassword(me.id);
    const c = client();
    await logIn(c, "me@aff.example");
    for (const path of [
      "/account",
      "/account/links",
      "/account/products",
      "/account/coupons",
      "/account/creatives",
      "/account/sales",
      "/account/payouts",
      "/account/recruits",
      "/account/guide",
      "/account/settings",
      "/account/contact-us",
    ]) {
      const res = await c.get(path);
      expect(res.status, path).toBe(200);
    }
    for (const preset of [
      "today",
      "yesterday",
      "last_7",
      "last_90",
      "last_month",
      "last_year",
      "week_to_date",
      "month_to_date",
      "year_to_date",
      "bogus",
    ]) {
      expect((await c.get(`/account?range=${preset}`)).status, preset).toBe(200);
    }
  });

  it("saves the payout e-mail and profile with validation", async () => {
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    await withPassword(me.id);
    const c = client();
    await logIn(c, "me@aff.example");
    expect(
      (await c.postForm("/account/payouts", { method: "paypal", paypalEmail: "nope", current: PASSWORD })).status,
    ).toBe(422);
    expect(
      location(
        await c.postForm("/account/payouts", { method: "paypal", paypalEmail: "Pay@Me.example", current: PASSWORD }),
      ),
    ).toBe("/account/payouts?saved=1");
    const bad = await c.postForm("/account/settings", {
      intent: "profile",
      firstName: "",
      lastName: "X",
      website: "",
      language: "en",
    });
    expect(bad.status).toBe(422);
    expect(
      location(
        await c.postForm("/account/settings", {
          intent: "profile",
          firstName: "Mia",
          lastName: "X",
          website: "https://mia.example",
          language: "de",
        }),
      ),
    ).toBe("/account/settings?saved=profile");
    expect(await getDb().affiliate.findUniqueOrThrow({ where: { id: me.id } })).toMatchObject({
      paypalEmail: "pay@me.example",
      firstName: "Mia",
      language: "de",
    });
  });
});

describe("payout e-mail", () => {
  async function loggedIn() {
    const me = await buildAffiliate(shop.id, campaign.id, { email: "me@aff.example" });
    await getDb().affiliate.update({ where: { id: me.id }, data: { paypalEmail: "old@pay.example" } });
    await withPassword(me.id);
    const c = client();
    await logIn(c, "me@aff.example");
    return { me, c };
  }
  const paypalOf = async (id: string) =>
    (await getDb().affiliate.findUniqueOrThrow({ where: { id }, select: { paypalEmail: true } })).paypalEmail;

  it("asks for the current password: a wrong or missing one is a field error and changes nothing", async () => {
    const { me, c } = await loggedIn();
    const wrong = await c.postForm("/account/payouts", {
      method: "paypal",
      paypalEmail: "thief@pay.example",
      current: "not my password",
    });
    expect(wrong.status).toBe(422);
    const html = await wrong.text();
    expect(html).toContain("This is not your current password");
    // The typed address is shown again; the password is not.
    expect(html).toContain('value="thief@pay.example"');
    expect(html).not.toContain("not my password");
    const missing = await c.postForm("/account/payouts", { method: "paypal", paypalEmail: "thief@pay.example" });
    expect(missing.status).toBe(422);
    expect(await missing.text()).toContain("Enter your current password");
    expect(await paypalOf(me.id)).toBe("old@pay.example");

    const ok = await c.postForm("/account/payouts", {
      method: "paypal",
      paypalEmail: "new@pay.example",
      current: PASSWORD,
    });
    expect(location(ok)).toBe("/account/payouts?saved=1");
    expect(await paypalOf(me.id)).toBe("new@pay.example");
  });

  it("counts wrong passwords against the login throttle", async () => {
    const { me, c } = await loggedIn();
    for (let i = 0; i < 5; i++) {
      const res = await c.postForm("/account/payouts", {
        method: "paypal",
        paypalEmail: "x@pay.example",
        current: `guess ${i}`,
      });
      expect(res.status).toBe(422);
    }
    const blocked = await c.postForm("/account/payouts", {
      method: "paypal",
      paypalEmail: "x@pay.example",
      current: PASSWORD,
    });
    expect(blocked.status).toBe(429);
    expect(await paypalOf(me.id)).toBe("old@pay.example");
  });

  it("refuses a change fetched from another origin (403) and changes nothing", async () => {
    const { me, c } = await loggedIn();
    // A page on another port of the same host: same site, so the cookie rides along.
    const res = await c.postForm(
      "/account/payouts?_data=routes%2Faccount.payouts",
      { paypalEmail: "thief@pay.example", current: PASSWORD },
      { origin: "http://127.0.0.1:9", "sec-fetch-site": "same-site" },
    );
    expect(res.status).toBe(403);
    expect(await paypalOf(me.id)).toBe("old@pay.example");
  });
});

describe("bad input", () => {
  it("answers every malformed request with a 4xx, never a 500", async () => {
    await signUp(client());
    const c = client();
    await logIn(c, "nora@aff.example");
    const cases: [string, () => Promise<Response>][] = [
      ["upper-case handle", () => client().get("/portal/Not_A_Handle/")],
      ["unknown portal page", () => client().get(`/portal/${handle}/nope`)],
      ["post to the landing page", () => client().postForm(`/portal/${handle}/?index`, { a: "b" })],
      [
        "garbage sign-up body",
        () =>
          client().request(`/portal/${handle}/signup`, {
            method: "POST",
            body: "%%%",
            headers: { "content-type": "multipart/form-data; boundary=x" },
          }),
      ],
      [
        "huge e-mail",
        () => client().postForm(`/portal/${handle}/login`, { email: `${"a".repeat(5000)}@x.example`, password: "x" }),
      ],
      ["reset without token", () => client().get(`/portal/${handle}/reset`)],
      [
        "reset with a weird token",
        () => client().get(`/portal/${handle}/reset?token=${encodeURIComponent("' OR 1=1 --")}`),
      ],
      ["hand-over without token", () => client().get("/account/handover")],
      ["long sale id", () => c.get(`/account/sales/${"x".repeat(500)}`)],
      ["bad page number", () => c.get("/account/sales?page=-1e99")],
      [
        "link builder with a script URL",
        () => c.get(`/account/links?page=${encodeURIComponent("javascript:alert(1)")}`),
      ],
      ["unknown settings intent", () => c.postForm("/account/settings", { intent: "drop-tables" })],
      ["proxy without signature", () => client().get("/proxy/login?shop=x.myshopify.com&signature=zz")],
      ["asset path traversal", () => client().get("/portal-assets/..%2F..%2Fetc/passwd.png")],
    ];
    for (const [name, run] of cases) {
      const res = await run();
      expect(res.status, name).toBeLessThan(500);
    }
    const builder = await (await c.get(`/account/links?page=${encodeURIComponent("https://evil.example/x")}`)).text();
    expect(builder).toContain("Use an address on");
  });
});
