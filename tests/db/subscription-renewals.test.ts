import { describe, expect, it } from "vitest";
import { dbProvider, getDb } from "~/db.server";
import { prismaBulk } from "~/db/bulk-sql.server";
import { planWebhookEvents } from "~/models/webhooks/process-webhook.server";
import { impliedContractKey } from "~/models/subscriptions/implied-contract";
import { drainJobs } from "~/worker/job-registry.server";
import { campaignToForm } from "~/models/campaigns/campaign-form";
import { logInAs } from "../support/admin-client";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { webhookHeaders } from "../support/webhooks";

// Issue 32: recurring commissions on subscriptions, end to end over real
// HTTP. The store simulator makes a subscription contract from a referred
// first order and bills it: the signed subscription_contracts/create and
// renewal orders/create webhooks reach the app, whose worker credits the
// renewals to the first order's affiliate while the campaign's renewal
// policy pays them (here: 5 renewal orders at 5 %).

applyTestEnv();
const sim = useStoreSimulator();
useTestDatabase();
const server = useTestServer();

const DETAIL = "routes/$role.sales.$id";
const CAMPAIGN = "routes/$role.campaigns.$id";

async function setUp(domain: string) {
  sim.reset();
  sim.setAppUrl(server.url(""));
  const shop = await buildShop({ domain });
  await getDb().shop.update({ where: { id: shop.id }, data: { timezone: "Europe/Berlin" } });
  const campaign = await buildCampaign(shop.id);
  await getDb().campaign.update({
    where: { id: campaign.id },
    data: {
      commissionType: "percent",
      commissionValue: 1000,
      renewalPolicy: "orders",
      renewalLimit: 5,
      renewalCommissionType: "percent",
      renewalCommissionValue: 500,
    },
  });
  const anna = await buildAffiliate(shop.id, campaign.id, { referralCode: "ANNA", email: "anna@aff.example" });
  const user = await buildUser(shop.id, { email: `admin-${shop.id}@example.com` });
  const admin = await logInAs(server.url, "admin", user.email);
  return { shop, campaign, anna, admin };
}

const ordersOf = (shopId: string) =>
  getDb().order.findMany({ where: { shopId }, orderBy: { name: "asc" }, include: { commissions: true } });

describe("renewal orders of a subscription", () => {
  it("pay the renewal rate to the first order's affiliate up to the policy's fifth renewal, and not the sixth", async () => {
    const { shop, anna, admin } = await setUp("subs-shop.myshopify.com");
    const first = await sim.store.placeOrder(shop.domain, {
      products: ["canvas-tote"],
      amount: "100.00",
      referralCode: "ANNA",
      customer: "sub@example.net",
      now: new Date("2026-01-15T09:00:00Z"),
    });
    await drainJobs();
    const made = await sim.store.createSubscriptionContract(shop.domain, first.order.id);
    expect(made.deliveries.map((d) => [d.topic, d.status])).toEqual([["subscription_contracts/create", 200]]);
    await drainJobs();
    const contractGid = `gid://shopify/SubscriptionContract/${made.contract.id}`;
    expect(await getDb().subscriptionContract.findMany({ where: { shopId: shop.id } })).toMatchObject([
      {
        contractGid,
        originOrderGid: `gid://shopify/Order/${first.order.id}`,
        customerGid: `gid://shopify/Customer/${first.order.customerId}`,
        status: "active",
      },
    ]);

    for (let month = 1; month <= 6; month++) {
      const renewal = await sim.store.renewSubscription(
        shop.domain,
        made.contract.id,
        new Date(Date.UTC(2026, month, 15, 9)),
      );
      expect(JSON.parse(renewal.payload)).toMatchObject({ source_name: "subscription_contract", checkout_token: null });
      expect(renewal.deliveries.map((d) => d.status)).toEqual([200, 200]);
      await drainJobs();
    }

    const orders = await ordersOf(shop.id);
    expect(orders).toHaveLength(7);
    const [origin, ...renewals] = orders;
    expect(origin).toMatchObject({ affiliateId: anna.id, subscriptionContractGid: null, renewalNumber: null });
    expect(origin!.commissions.map((c) => c.amount)).toEqual([1000]);
    expect(renewals.map((o) => o.renewalNumber)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(renewals.every((o) => o.subscriptionContractGid === contractGid)).toBe(true);
    // Renewals (the tote at its catalogue price, 45.00) 1 to 5 pay the renewal rate, 5 %; the sixth pays nothing.
    expect(renewals.map((o) => o.commissions.map((c) => [c.affiliateId, c.amount]))).toEqual([
      [[anna.id, 225]],
      [[anna.id, 225]],
      [[anna.id, 225]],
      [[anna.id, 225]],
      [[anna.id, 225]],
      [],
    ]);
    const third = renewals[2]!;
    expect(third).toMatchObject({
      affiliateId: anna.id,
      attributionSource: "subscription",
      attributionReasonKey: "Sales:attributionReason.renewal",
    });
    expect(JSON.parse(third.attributionReasonValues)).toEqual({
      who: `${anna.firstName} ${anna.lastName} (ANNA)`.replace(/\s+\(/, " ("),
      renewal: 3,
      started: "2026-01-15T09:00:00.000Z",
    });
    const sixth = renewals[5]!;
    expect(sixth).toMatchObject({
      affiliateId: null,
      attributionSource: "none",
      attributionReasonKey: "Sales:attributionReason.renewalEnded",
    });
    expect(JSON.parse(sixth.attributionReasonValues)).toMatchObject({ renewal: 6 });

    // The sale page's data carries the reason the page words in the reader's language.
    const page = await (await admin.load(`/admin/sales/${third.id}`, DETAIL)).json();
    expect(page.sale.attribution).toMatchObject({ source: "subscription" });
    const html = await (await admin.document(`/admin/sales/${third.id}`)).text();
    expect(html).toContain("Renewal 3 of the subscription started on");
  });

  it("changes nothing when the contract webhook is delivered again, or an older update arrives", async () => {
    const { shop } = await setUp("subs-replay.myshopify.com");
    const first = await sim.store.placeOrder(shop.domain, { referralCode: "ANNA", customer: "again@example.net" });
    const made = await sim.store.createSubscriptionContract(shop.domain, first.order.id);
    await drainJobs();
    const before = await getDb().subscriptionContract.findMany({ where: { shopId: shop.id } });
    expect(before).toHaveLength(1);

    const body = made.deliveries[0]!.body;
    const post = (headers: Record<string, string>) => fetch(server.url("/webhooks"), { method: "POST", headers, body });
    // The same delivery again (Shopify's retry: same webhook id), then a new delivery of the same body.
    const headers = webhookHeaders("subscription_contracts/create", shop.domain, body);
    expect((await post(headers)).status).toBe(200);
    expect((await post(headers)).status).toBe(200);
    expect((await post(webhookHeaders("subscription_contracts/create", shop.domain, body))).status).toBe(200);
    // A forged one is refused.
    expect(
      (await post(webhookHeaders("subscription_contracts/create", shop.domain, body, { "x-shopify-hmac-sha256": "x" })))
        .status,
    ).toBe(401);
    await drainJobs();
    expect(await getDb().subscriptionContract.findMany({ where: { shopId: shop.id } })).toEqual(before);

    // A real update (paused, revision 2) is kept; replaying the older create afterwards changes nothing.
    const paused = await sim.store.changeSubscriptionContract(shop.domain, made.contract.id, "PAUSED");
    expect(paused.deliveries.map((d) => [d.topic, d.status])).toEqual([["subscription_contracts/update", 200]]);
    await drainJobs();
    const after = await getDb().subscriptionContract.findMany({ where: { shopId: shop.id } });
    expect(after).toMatchObject([{ status: "paused", revisionId: "2" }]);
    expect((await post(webhookHeaders("subscription_contracts/create", shop.domain, body))).status).toBe(200);
    await drainJobs();
    expect(await getDb().subscriptionContract.findMany({ where: { shopId: shop.id } })).toEqual(after);
  });
});

describe("renewal orders of another subscription app's contract", () => {
  // Shopify sends subscription_contracts/* only to the app that made the
  // contract: these renewals name no contract the app knows (ADR 047, addendum).
  it("pay the first order's affiliate per the campaign's policy (5 renewals), and not the sixth", async () => {
    const { shop, anna } = await setUp("subs-other-app.myshopify.com");
    const first = await sim.store.placeOrder(shop.domain, {
      products: ["canvas-tote"],
      amount: "100.00",
      referralCode: "ANNA",
      customer: "other-app@example.net",
      now: new Date("2026-01-15T09:00:00Z"),
    });
    // Another customer subscribes without a referral: their renewals stay ordinary orders.
    const plain = await sim.store.placeOrder(shop.domain, {
      products: ["canvas-tote"],
      customer: "plain@example.net",
      now: new Date("2026-01-16T09:00:00Z"),
    });
    await drainJobs();
    const made = await sim.store.createSubscriptionContract(shop.domain, first.order.id, { byAnotherApp: true });
    expect(made.deliveries.map((d) => [d.topic, d.status])).toEqual([["subscription_contracts/create", null]]);
    const plainContract = await sim.store.createSubscriptionContract(shop.domain, plain.order.id, {
      byAnotherApp: true,
    });
    await drainJobs();
    expect(await getDb().subscriptionContract.count({ where: { shopId: shop.id } })).toBe(0);

    for (let month = 1; month <= 6; month++) {
      const at = new Date(Date.UTC(2026, month, 15, 9));
      const renewal = await sim.store.renewSubscription(shop.domain, made.contract.id, at);
      expect(JSON.parse(renewal.payload)).toMatchObject({ source_name: "subscription_contract" });
      if (month === 1) await sim.store.renewSubscription(shop.domain, plainContract.contract.id, at);
      await drainJobs();
    }

    const customerGid = `gid://shopify/Customer/${first.order.customerId}`;
    const productId = (JSON.parse(first.payload) as { line_items: { product_id: number }[] }).line_items[0]!.product_id;
    const implied = impliedContractKey(customerGid, {
      productGids: [`gid://shopify/Product/${productId}`],
      sellingPlanGids: [],
    });
    const orders = await getDb().order.findMany({
      where: { shopId: shop.id, customerGid },
      orderBy: { placedAt: "asc" },
      include: { commissions: true },
    });
    const [origin, ...renewals] = orders;
    expect(origin).toMatchObject({ affiliateId: anna.id, subscriptionContractGid: null });
    expect(renewals.map((o) => [o.subscriptionContractGid, o.renewalNumber])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [implied, n]),
    );
    expect(renewals.map((o) => o.commissions.map((c) => [c.affiliateId, c.amount]))).toEqual([
      [[anna.id, 225]],
      [[anna.id, 225]],
      [[anna.id, 225]],
      [[anna.id, 225]],
      [[anna.id, 225]],
      [],
    ]);
    expect(renewals[2]).toMatchObject({
      attributionSource: "subscription",
      attributionReasonKey: "Sales:attributionReason.renewal",
    });
    expect(JSON.parse(renewals[2]!.attributionReasonValues)).toMatchObject({
      renewal: 3,
      started: "2026-01-15T09:00:00.000Z",
    });
    expect(renewals[5]).toMatchObject({
      affiliateId: null,
      attributionReasonKey: "Sales:attributionReason.renewalEnded",
    });

    const plainOrders = await getDb().order.findMany({
      where: { shopId: shop.id, customerEmail: "plain@example.net" },
      orderBy: { placedAt: "asc" },
    });
    expect(plainOrders.map((o) => [o.affiliateId, o.subscriptionContractGid, o.renewalNumber])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
  });
});

describe("two batches with renewals of one contract at once", () => {
  // The job worker plans a batch before it writes it (on SQLite outside the
  // write lock; on PostgreSQL inside a transaction that cannot see another
  // one's rows): two batches both counted the same renewals and numbered
  // theirs alike. The unique key on (contract, number) makes the second one
  // plan its renewal again.
  async function twoRenewalsStored(domain: string) {
    const { shop, anna } = await setUp(domain);
    const first = await sim.store.placeOrder(shop.domain, {
      products: ["canvas-tote"],
      referralCode: "ANNA",
      customer: `race-${domain}@example.net`,
      now: new Date("2026-01-15T09:00:00Z"),
    });
    await drainJobs();
    const made = await sim.store.createSubscriptionContract(shop.domain, first.order.id);
    await drainJobs();
    const r1 = await sim.store.renewSubscription(shop.domain, made.contract.id, new Date("2026-02-15T09:00:00Z"));
    const r2 = await sim.store.renewSubscription(shop.domain, made.contract.id, new Date("2026-03-15T09:00:00Z"));
    const event = (body: string) =>
      getDb().webhookEvent.findFirstOrThrow({ where: { topic: "orders/create", payload: body } });
    return { shop, anna, a: await event(r1.payload), b: await event(r2.payload) };
  }

  const renewalNumbers = (shopId: string) =>
    getDb()
      .order.findMany({ where: { shopId, renewalNumber: { not: null } }, orderBy: { placedAt: "asc" } })
      .then((rows) => rows.map((o) => o.renewalNumber));

  it("numbers them 1 and 2 when both were planned before either was written", async () => {
    const { shop, anna, a, b } = await twoRenewalsStored("subs-race.myshopify.com");
    const reader = prismaBulk(getDb(), dbProvider());
    const planA = await planWebhookEvents(reader, [a.id]);
    const planB = await planWebhookEvents(reader, [b.id]);
    await getDb().$transaction((tx) => planA.write(prismaBulk(tx, dbProvider())));
    await getDb().$transaction((tx) => planB.write(prismaBulk(tx, dbProvider())));
    expect(await renewalNumbers(shop.id)).toEqual([1, 2]);
    // Each renewal once, each with its commission and announcement.
    const renewals = await getDb().order.findMany({
      where: { shopId: shop.id, renewalNumber: { not: null } },
      include: { commissions: true },
    });
    expect(renewals.map((o) => o.commissions.map((c) => c.affiliateId))).toEqual([[anna.id], [anna.id]]);
    expect(await getDb().domainEvent.count({ where: { shopId: shop.id, type: "sale.credited" } })).toBe(3);
    // The orders/paid deliveries and the jobs of the planned events change nothing more.
    await drainJobs();
    expect(await renewalNumbers(shop.id)).toEqual([1, 2]);
    expect(await getDb().order.count({ where: { shopId: shop.id } })).toBe(3);
  });

  it.runIf(/^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? ""))(
    "numbers them 1 and 2 when the second batch's insert waited on the first one's uncommitted renewal (PostgreSQL)",
    async () => {
      const { shop, a, b } = await twoRenewalsStored("subs-race-pg.myshopify.com");
      const db = getDb();
      let releaseA!: () => void;
      const aMayCommit = new Promise<void>((resolve) => (releaseA = resolve));
      let aWrote!: () => void;
      const aHasWritten = new Promise<void>((resolve) => (aWrote = resolve));
      const batch = (eventId: string, hold?: () => Promise<void>) =>
        db.$transaction(
          async (tx) => {
            const bulk = prismaBulk(tx, "postgresql");
            const plan = await planWebhookEvents(bulk, [eventId]);
            await plan.write(bulk);
            if (hold) await hold();
          },
          { timeout: 30_000 },
        );
      const workerA = batch(a.id, async () => {
        aWrote();
        await aMayCommit;
      });
      await aHasWritten;
      const workerB = batch(b.id);
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if ((row?.n ?? 0) > 0) break;
        if (Date.now() > deadline) throw new Error("the second batch never waited on the first one's renewal");
        await new Promise((r) => setTimeout(r, 20));
      }
      releaseA();
      await workerA;
      await workerB;
      expect(await renewalNumbers(shop.id)).toEqual([1, 2]);
    },
  );
});

describe("the campaign form's renewal policy", () => {
  const values = (campaign: Record<string, unknown>, renewals: Record<string, unknown>) => ({
    ...campaign,
    renewals: {
      policy: "none",
      limit: "",
      own_rate: false,
      commission_type: "percent",
      commission_value: "",
      ...renewals,
    },
  });

  it("saves a policy, and answers bad input with 422 and changes nothing", async () => {
    const { campaign, admin } = await setUp("subs-form.myshopify.com");
    const loaded = await (await admin.load(`/admin/campaigns/${campaign.id}`, CAMPAIGN)).json();
    const form = campaignToForm(loaded.campaign, 2);
    expect(form.renewals).toEqual({
      policy: "orders",
      limit: "5",
      own_rate: true,
      commission_type: "percent",
      commission_value: "5",
    });
    const stored = () => getDb().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    const before = await stored();
    for (const bad of [
      { policy: "orders", limit: "" },
      { policy: "months", limit: "0" },
      { policy: "orders", limit: "2.5" },
      { policy: "orders", limit: "3", own_rate: true, commission_value: "120" },
      { policy: "forever" },
    ]) {
      const res = await admin.act(`/admin/campaigns/${campaign.id}`, CAMPAIGN, {
        intent: "save",
        values: values(form, bad),
      });
      expect(res.status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(bad)).toBeLessThan(500);
    }
    expect(await stored()).toEqual(before);

    const ok = await admin.act(`/admin/campaigns/${campaign.id}`, CAMPAIGN, {
      intent: "save",
      values: values(form, {
        policy: "months",
        limit: "12",
        own_rate: true,
        commission_type: "flat_order",
        commission_value: "2.50",
      }),
    });
    expect(ok.status, await ok.clone().text()).toBeLessThan(400);
    expect(await stored()).toMatchObject({
      renewalPolicy: "months",
      renewalLimit: 12,
      renewalCommissionType: "flat_order",
      renewalCommissionValue: 250,
    });
  });
});
