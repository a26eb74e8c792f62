import {
  API_KEY,
  API_SECRET_KEY,
  TEST_SHOP,
  TEST_SHOP_NAME,
  getJwt,
  setUpValidSession,
} from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import { applyTestEnv } from "../support/test-env";
import { useTestDatabase } from "../support/test-db";
import { useTestServer } from "../support/test-server";
import { HttpClient } from "../support/http-client";
import { useStoreSimulator } from "../support/store-simulator";
import { buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { getDb } from "~/db.server";
import { decideAuthStep } from "~/lib/auth-steps";
import { drainJobs } from "~/worker/job-registry.server";
import { SCOPES, shopify } from "~/shopify.server";

// Pricing plans through Shopify Billing, end to end against the store
// simulator: the app creates the charge, the merchant approves it on the
// simulator's confirmation page, comes back through /auth's plan_id step, and
// app_subscriptions/update webhooks keep the plan true afterwards.

applyTestEnv();
const sim = useStoreSimulator({ scopes: SCOPES });
useTestDatabase();
const server = useTestServer();

const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36" };
const ACTIVATE_DATA = `_data=${encodeURIComponent("routes/$role.plans.activate")}`;

async function embedded() {
  const { token } = await getJwt(TEST_SHOP_NAME, API_KEY, API_SECRET_KEY);
  return { ...BROWSER, authorization: `Bearer ${token}` };
}

async function installEmbeddedShop(pricingPlan: string | null = "free") {
  const session = setUpValidSession({
    shop: TEST_SHOP,
    accessToken: sim.accessToken(TEST_SHOP),
    scope: SCOPES.join(","),
  });
  await shopify().sessionStorage.storeSession(session);
  return buildShop({ domain: TEST_SHOP, pricingPlan, needSelectPlan: pricingPlan ? null : true });
}

const shopRow = () => getDb().shop.findUniqueOrThrow({ where: { domain: TEST_SHOP } });
const subscriptions = () => sim.store.shop(TEST_SHOP).subscriptions;

/** The merchant chooses a paid plan in the embedded admin and approves the charge at Shopify. */
async function subscribe(client: HttpClient, planId: string, interval: "monthly" | "yearly" = "monthly") {
  const res = await client.postForm(
    `/admin/plans/activate?${ACTIVATE_DATA}`,
    { plan_id: planId, interval },
    await embedded(),
  );
  expect(res.status).toBe(200);
  const { confirmationUrl } = (await res.json()) as { confirmationUrl: string };
  expect(confirmationUrl).toContain("/confirm_recurring_application_charge");
  // The simulator's confirmation page: the merchant approves.
  const approved = await fetch(confirmationUrl, {
    method: "POST",
    body: new URLSearchParams({ decision: "approve" }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  expect(approved.status).toBe(303);
  return new URL(approved.headers.get("location")!);
}

beforeEach(() => {
  sim.reset();
  sim.setAppUrl(server.url(""));
});

describe("a paid plan through Shopify Billing", () => {
  it("subscribes with a trial, comes back through /auth's plan_id step and changes the plan", async () => {
    await installEmbeddedShop("free");
    const client = new HttpClient(server.url);
    const back = await subscribe(client, "growth");

    const [charge] = subscriptions();
    expect(charge).toMatchObject({ name: "growth:monthly", trialDays: 14, status: "ACTIVE" });
    expect(charge!.lineItems[0]).toMatchObject({
      kind: "recurring",
      price: "29.0",
      currency: "USD",
      interval: "EVERY_30_DAYS",
    });

    // Shopify sends the merchant to the return URL: the /auth screen, whose plan_id step leads to plans/activate.
    expect(back.pathname).toBe("/auth");
    expect(back.searchParams.get("charge_id")).toBe(charge!.id);
    const step = decideAuthStep(back.search, { inIframe: false });
    expect(step).toMatchObject({ type: "navigate" });
    const to = (step as { to: string }).to;
    expect(to).toMatch(/^\/admin\/plans\/activate\?.*charge_id=\d+.*&plan_id=growth$/);

    // Before the return is handled the plan is unchanged (the webhook is still queued).
    expect((await shopRow()).pricingPlan).toBe("free");
    const done = await client.get(`${to}&${ACTIVATE_DATA}`, await embedded());
    expect(done.status).toBe(204);
    expect(done.headers.get("x-remix-redirect")).toMatch(/^\/admin\/dashboard/);
    expect(await shopRow()).toMatchObject({
      pricingPlan: "growth",
      needSelectPlan: null,
      billingSubscriptionId: `gid://shopify/AppSubscription/${charge!.id}`,
    });

    // Shopify's own app_subscriptions/update (ACTIVE) agrees and changes nothing more.
    await sim.store.flush();
    await drainJobs();
    expect((await shopRow()).pricingPlan).toBe("growth");
  });

  it("charges the yearly price when the merchant picks yearly", async () => {
    await installEmbeddedShop("free");
    await subscribe(new HttpClient(server.url), "pro", "yearly");
    expect(subscriptions()[0]!.lineItems[0]).toMatchObject({ price: "990.0", interval: "ANNUAL" });
  });

  it("a declined charge changes nothing and says why", async () => {
    await installEmbeddedShop("free");
    const client = new HttpClient(server.url);
    const res = await client.postForm(
      `/admin/plans/activate?${ACTIVATE_DATA}`,
      { plan_id: "growth" },
      await embedded(),
    );
    const { confirmationUrl } = (await res.json()) as { confirmationUrl: string };
    const declined = await fetch(confirmationUrl, {
      method: "POST",
      body: new URLSearchParams({ decision: "decline" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    const back = new URL(declined.headers.get("location")!);
    const again = await client.get(
      `/admin/plans/activate?plan_id=growth&charge_id=${back.searchParams.get("charge_id")}&${ACTIVATE_DATA}`,
      await embedded(),
    );
    expect(again.status).toBe(409);
    expect((await shopRow()).pricingPlan).toBe("free");
  });

  it("refuses an unknown plan with a 404 and creates no charge", async () => {
    await installEmbeddedShop("free");
    const res = await new HttpClient(server.url).postForm(
      `/admin/plans/activate?${ACTIVATE_DATA}`,
      { plan_id: "platinum" },
      await embedded(),
    );
    expect(res.status).toBe(404);
    expect(subscriptions()).toEqual([]);
  });
});

describe("app_subscriptions/update keeps the plan true", () => {
  async function onGrowth() {
    await installEmbeddedShop("free");
    const client = new HttpClient(server.url);
    const back = await subscribe(client, "growth");
    const to = (decideAuthStep(back.search, { inIframe: false }) as { to: string }).to;
    await client.get(`${to}&${ACTIVATE_DATA}`, await embedded());
    await sim.store.flush();
    await drainJobs();
    return { client, charge: subscriptions()[0]! };
  }

  it("a cancelled charge takes the shop to the free plan: gated features answer with the upgrade prompt", async () => {
    const { client, charge } = await onGrowth();
    const referrals = `/admin/referrals?_data=${encodeURIComponent("routes/$role.referrals._index")}`;
    expect((await client.get(referrals, await embedded())).status).toBe(200);

    const delivery = await sim.store.changeSubscription(TEST_SHOP, charge.id, "CANCELLED");
    expect(delivery.status).toBe(200);
    await drainJobs();
    expect(await shopRow()).toMatchObject({ pricingPlan: "free", billingSubscriptionId: null });

    const gated = await client.get(referrals, await embedded());
    expect(gated.status).toBe(403);
    expect(await gated.json()).toMatchObject({
      error: { code: "forbidden" },
      upgrade: { feature: "referAFriend", plan: "growth", plansUrl: "/admin/plans?upgrade=referAFriend" },
    });
  });

  it("a frozen charge gates too, and thawing it gives the plan back", async () => {
    const { charge } = await onGrowth();
    await sim.store.changeSubscription(TEST_SHOP, charge.id, "FROZEN");
    await drainJobs();
    expect((await shopRow()).pricingPlan).toBe("free");
    await sim.store.changeSubscription(TEST_SHOP, charge.id, "ACTIVE");
    await drainJobs();
    expect((await shopRow()).pricingPlan).toBe("growth");
  });

  it("news about a replaced charge changes nothing", async () => {
    const { client, charge: first } = await onGrowth();
    const back = await subscribe(client, "pro");
    const to = (decideAuthStep(back.search, { inIframe: false }) as { to: string }).to;
    await client.get(`${to}&${ACTIVATE_DATA}`, await embedded());
    await sim.store.flush();
    await drainJobs();
    expect((await shopRow()).pricingPlan).toBe("pro");
    // The first charge was replaced (cancelled at approval); a late word about it is old news.
    expect(first.status).toBe("CANCELLED");
    const stale = await sim.store.deliver(
      TEST_SHOP,
      "app_subscriptions/update",
      JSON.stringify({
        app_subscription: {
          admin_graphql_api_id: `gid://shopify/AppSubscription/${first.id}`,
          name: "growth:monthly",
          status: "CANCELLED",
        },
      }),
    );
    expect(stale.status).toBe(200);
    await drainJobs();
    expect((await shopRow()).pricingPlan).toBe("pro");
  });
});

describe("standalone shops", () => {
  async function login(shopId: string) {
    const user = await buildUser(shopId, { role: "admin" });
    const client = new HttpClient(server.url);
    const res = await client.postForm(
      "/login",
      { email: user.email, password: TEST_PASSWORD },
      { origin: server.url("").replace(/\/$/, "") },
    );
    expect(res.status).toBe(302);
    return client;
  }

  it("choose any plan with no charge", async () => {
    const shop = await buildShop({ pricingPlan: null, needSelectPlan: true });
    const client = await login(shop.id);
    const res = await client.postForm(
      `/admin/plans/activate?${ACTIVATE_DATA}`,
      { plan_id: "pro", interval: "yearly" },
      { origin: server.url("").replace(/\/$/, "") },
    );
    expect(res.status).toBe(204);
    expect(await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).toMatchObject({
      pricingPlan: "pro",
      needSelectPlan: null,
    });
    expect(sim.store.requests).toEqual([]);
  });

  it("are told on the Activate page, as on Pricing, that nothing is billed", async () => {
    const shop = await buildShop({ pricingPlan: null, needSelectPlan: true });
    const client = await login(shop.id);
    const page = await (await client.get("/admin/plans/activate?plan_id=pro&interval=monthly")).text();
    expect(page).toContain("This installation is not billed through Shopify: choosing a plan costs nothing.");
    // The texts travel in the page's translation payload too: look for the rendered charge, price filled in.
    expect(page).not.toMatch(/\$[\d.,]+ every 30 days after a \d+-day free trial, billed by Shopify/);
  });

  it("keep their data after a downgrade: over-limit affiliates stay readable with the reason, none can be added", async () => {
    // Grown on a bigger plan, now on free (50 affiliates).
    const shop = await buildShop({ pricingPlan: "growth" });
    const campaign = await buildCampaign(shop.id);
    await getDb().affiliate.createMany({
      data: Array.from({ length: 52 }, (_, i) => ({
        shopId: shop.id,
        campaignId: campaign.id,
        email: `a${i}@example.com`,
        firstName: "A",
        lastName: String(i),
        referralCode: `code${i}`,
        status: "approved",
      })),
    });
    await getDb().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    const client = await login(shop.id);
    const origin = { origin: server.url("").replace(/\/$/, "") };
    const data = `_data=${encodeURIComponent("routes/$role.affiliates._index")}`;
    const list = await client.get(`/admin/affiliates?${data}`);
    expect(list.status).toBe(200);
    const body = (await list.json()) as { planLimit: unknown };
    expect(body.planLimit).toEqual({ max: 50, count: 52, over: true, full: true });
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(52);

    const add = await client.postForm(
      `/admin/affiliates?${data}`,
      { intent: "create", email: "new@example.com", first_name: "New", last_name: "One", campaign_id: campaign.id },
      origin,
    );
    expect(add.status).toBe(409);
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(52);
    // A feature above the plan: the upgrade prompt, its data untouched.
    expect((await client.get(`/admin/settings/integrations`)).status).toBe(403);
  });
});
