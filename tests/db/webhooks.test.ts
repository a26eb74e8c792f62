import { orderReason } from "../support/attribution-reasons";
import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/db/database-url";
import { getDb } from "~/db.server";
import { z } from "zod";
import { insertJob, JobWorker } from "~/db/job-queue.server";
import { writeLockHolds } from "~/db/write-lock-stats";
import { createJobWorker, drainJobs } from "~/worker/job-registry.server";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { fixtureText, fixtureWith, orderStatusUrl, signWebhook, webhookHeaders } from "../support/webhooks";
import { useMoneyCheck } from "../support/money-check";
import { payLinesByHand } from "../support/api-builders";

// The core loop from real Shopify payloads: signed webhooks over HTTP, stored
// durably, processed by the job worker, with exact commissions.
applyTestEnv();
const database = useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const SHOP = "webhook-shop.myshopify.com";
const ORDER_GID = "gid://shopify/Order/820982911946154508";
let ids: { shop: string; campaign: string; a: string; b: string; c: string };

beforeEach(async () => {
  const db = getDb();
  const shop = await db.shop.create({
    data: {
      domain: SHOP,
      name: "Webhook shop",
      url: `https://${SHOP}`,
      adminEmail: "o@x.example",
      pricingPlan: "growth",
    },
  });
  const campaign = await db.campaign.create({
    data: {
      shopId: shop.id,
      name: "Main",
      status: "active",
      commissionType: "percent",
      commissionValue: 1000,
      cookieDays: 30,
      levels: {
        create: [
          { level: 2, basis: "percent_of_sale", rate: 300 },
          { level: 3, basis: "percent_of_sale", rate: 100 },
        ],
      },
    },
  });
  const mk = (code: string, parentId: string | null, email: string) =>
    db.affiliate.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        parentId,
        email,
        firstName: code,
        lastName: "Test",
        status: "approved",
        referralCode: code,
      },
    });
  const c = await mk("CARA", null, "cara@aff.example");
  const b = await mk("BEN", c.id, "ben@aff.example");
  const a = await mk("ANNA", b.id, "anna@aff.example");
  await db.coupon.create({ data: { shopId: shop.id, affiliateId: a.id, code: "ANNA10" } });
  ids = { shop: shop.id, campaign: campaign.id, a: a.id, b: b.id, c: c.id };
});

async function send(topic: string, body: string, headers: Record<string, string> = {}, shop = SHOP) {
  const client = new HttpClient(server.url);
  return client.request("/webhooks", { method: "POST", body, headers: webhookHeaders(topic, shop, body, headers) });
}

// Shopify's sample leaves the shop's domains empty; a real one names the shop.
const uninstalledBody = (shop: string) =>
  fixtureWith("app_uninstalled.json", (s) => {
    s.myshopify_domain = shop;
    s.domain = shop;
  });

async function deliver(topic: string, body: string, headers: Record<string, string> = {}) {
  const res = await send(topic, body, headers);
  expect(res.status, await res.clone().text()).toBe(200);
  await drainJobs();
  return res;
}

// The fixture is a cancelled test order; the scenarios start from a live one.
// Its order status URL names the shop it came from, as a real one does.
const ownStatusUrl = (o: Record<string, any>) => {
  o.order_status_url = orderStatusUrl(SHOP);
};
const orderWith = (edit: (o: Record<string, any>) => void) =>
  fixtureWith("orders_create.json", (o) => {
    o.cancelled_at = null;
    ownStatusUrl(o);
    edit(o);
  });
const couponOrder = () =>
  orderWith((o) => {
    o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
    o.cancelled_at = null;
  });

async function commissionsOf(orderGid = ORDER_GID) {
  const order = await getDb().order.findUniqueOrThrow({
    where: { shopId_shopifyGid: { shopId: ids.shop, shopifyGid: orderGid } },
  });
  const rows = await getDb().commission.findMany({
    where: { orderId: order.id },
    orderBy: [{ level: "asc" }, { createdAt: "asc" }],
  });
  return {
    order,
    rows: rows.map((r) => ({
      affiliateId: r.affiliateId,
      level: r.level,
      kind: r.kind,
      amount: r.amount,
      status: r.status,
    })),
  };
}

describe("orders/create", () => {
  it("credits a coupon order to its affiliate with exact 3-level MLM commissions", async () => {
    await deliver("orders/create", couponOrder());
    const { order, rows } = await commissionsOf();
    // Subtotal after discounts 404.95: 10 % = 40.495 -> 40.50; 3 % -> 12.15; 1 % -> 4.05.
    expect(order).toMatchObject({
      subtotal: 40495,
      currency: "USD",
      affiliateId: ids.a,
      attributionSource: "coupon",
      status: "pending",
    });
    expect(orderReason(order)).toBe("Credited to ANNA Test (ANNA): their coupon ANNA10 was used at checkout.");
    expect(rows).toEqual([
      { affiliateId: ids.a, level: 1, kind: "sale", amount: 4050, status: "pending" },
      { affiliateId: ids.b, level: 2, kind: "sale", amount: 1215, status: "pending" },
      { affiliateId: ids.c, level: 3, kind: "sale", amount: 405, status: "pending" },
    ]);
  });

  it("pays no upline on a plan without MLM (after a downgrade the levels are kept but pay nothing)", async () => {
    await getDb().shop.update({ where: { id: ids.shop }, data: { pricingPlan: "free" } });
    await deliver("orders/create", couponOrder());
    const { rows } = await commissionsOf();
    expect(rows).toEqual([{ affiliateId: ids.a, level: 1, kind: "sale", amount: 4050, status: "pending" }]);
    expect(await getDb().campaignLevel.count({ where: { campaignId: ids.campaign } })).toBe(2);
  });

  it("credits by cart attribute (a recorded click) within the cookie window", async () => {
    const click = await getDb().click.create({
      data: {
        shopId: ids.shop,
        affiliateId: ids.b,
        clickId: "clk-123",
        landingUrl: `https://${SHOP}/`,
        createdAt: new Date(Date.now() - 2 * 86_400_000),
      },
    });
    await deliver(
      "orders/create",
      orderWith((o) => {
        o.note_attributes = [
          { name: "_affiliate_ref", value: "BEN" },
          { name: "_affiliate_click", value: click.clickId },
        ];
        o.processed_at = new Date().toISOString();
      }),
    );
    const { order, rows } = await commissionsOf();
    expect(order).toMatchObject({ affiliateId: ids.b, attributionSource: "link", clickId: "clk-123" });
    expect(orderReason(order)).toMatch(/^Credited to BEN Test \(BEN\): referral link click 2 days before the order/);
    // B is level 1 now, C level 2; nobody above C.
    expect(rows.map((r) => [r.affiliateId, r.level, r.amount])).toEqual([
      [ids.b, 1, 4050],
      [ids.c, 2, 1215],
    ]);
  });

  it("credits by the Web Pixel's report when the cart carried nothing", async () => {
    await getDb().pixelEvent.create({ data: { shopId: ids.shop, checkoutToken: "tok-1", referralCode: "ANNA" } });
    await deliver(
      "orders/create",
      orderWith((o) => {
        o.checkout_token = "tok-1";
      }),
    );
    const { order } = await commissionsOf();
    expect(order).toMatchObject({ affiliateId: ids.a, attributionSource: "pixel" });
  });

  it("credits a returning customer to their lifetime affiliate", async () => {
    await getDb().customerLink.create({
      data: { shopId: ids.shop, customerKey: "gid://shopify/Customer/115310627314723954", affiliateId: ids.c },
    });
    await deliver("orders/create", fixtureWith("orders_create.json", ownStatusUrl));
    const { order, rows } = await commissionsOf();
    expect(order).toMatchObject({ affiliateId: ids.c, attributionSource: "lifetime" });
    expect(orderReason(order)).toMatch(/lifetime customer link/);
    expect(rows).toHaveLength(1);
  });

  it("stores orders credited to nobody with the reason", async () => {
    await deliver("orders/create", fixtureWith("orders_create.json", ownStatusUrl));
    const { order, rows } = await commissionsOf();
    expect(order).toMatchObject({ affiliateId: null, attributionSource: "none" });
    expect(orderReason(order)).toBe(
      "Not credited: no affiliate coupon, referral link, pixel report or lifetime customer link applies.",
    );
    expect(rows).toEqual([]);
  });

  it("refuses a self-referral and says why", async () => {
    await getDb().affiliate.update({ where: { id: ids.a }, data: { email: "jon@example.com" } });
    await deliver("orders/create", couponOrder());
    const { order, rows } = await commissionsOf();
    expect(order.affiliateId).toBeNull();
    expect(orderReason(order)).toBe(
      "Not credited. Self-referral refused: coupon ANNA10 points to ANNA Test (ANNA), but the buyer's e-mail jon@example.com is the affiliate's own.",
    );
    expect(rows).toEqual([]);
  });

  it("gives one sale and one set of commissions when the same webhook is replayed 10 times", async () => {
    const body = couponOrder();
    const headers = { "x-shopify-webhook-id": "replayed-webhook-1" };
    for (let i = 0; i < 10; i++) {
      const res = await send("orders/create", body, headers);
      expect(res.status).toBe(200);
    }
    await drainJobs();
    // The same order again under other webhook ids (orders/paid, a retry).
    await deliver("orders/paid", body);
    await deliver("orders/create", body);
    expect(await getDb().order.count()).toBe(1);
    expect(await getDb().commission.count()).toBe(3);
    expect(await getDb().webhookEvent.count({ where: { webhookId: "replayed-webhook-1" } })).toBe(1);
  });

  it("refuses a tampered HMAC with 401 and stores nothing", async () => {
    const body = couponOrder();
    const forged = await send("orders/create", body, { "x-shopify-hmac-sha256": signWebhook(body, "not-the-secret") });
    expect(forged.status).toBe(401);
    const altered = await send("orders/create", body.replace("anna10", "anna11"), {
      "x-shopify-hmac-sha256": signWebhook(body),
    });
    expect(altered.status).toBe(401);
    await drainJobs();
    expect(await getDb().webhookEvent.count()).toBe(0);
    expect(await getDb().job.count()).toBe(0);
    expect(await getDb().order.count()).toBe(0);
  });

  it("keeps the 18-digit order id exact", async () => {
    await deliver("orders/create", couponOrder());
    const { order } = await commissionsOf();
    expect(order.shopifyGid).toBe(ORDER_GID);
    expect(JSON.parse(order.lines)[0].id).toBe("487817672276298554");
  });
});

describe("lifecycle", () => {
  const partialRefund = () =>
    fixtureWith("refunds_create.json", (r) => {
      r.refund_line_items = r.refund_line_items.slice(0, 2);
    });

  it("reduces commissions in proportion to a partial refund before payout", async () => {
    await deliver("orders/create", couponOrder());
    const body = partialRefund();
    await deliver("refunds/create", body);
    await deliver("refunds/create", body); // a new delivery of the same refund changes nothing
    const { order, rows } = await commissionsOf();
    expect(order.refundedAmount).toBe(8999 + 1999);
    // Kept lines: 24.39 + 156.13 + 117.10 = 297.62 -> 29.76 / 8.93 / 2.98.
    expect(rows).toEqual([
      { affiliateId: ids.a, level: 1, kind: "sale", amount: 4050, status: "pending" },
      { affiliateId: ids.a, level: 1, kind: "refund", amount: -1074, status: "pending" },
      { affiliateId: ids.b, level: 2, kind: "sale", amount: 1215, status: "pending" },
      { affiliateId: ids.b, level: 2, kind: "refund", amount: -322, status: "pending" },
      { affiliateId: ids.c, level: 3, kind: "sale", amount: 405, status: "pending" },
      { affiliateId: ids.c, level: 3, kind: "refund", amount: -107, status: "pending" },
    ]);
  });

  it("leaves a negative balance for the next payout when a paid order is refunded", async () => {
    await deliver("orders/create", couponOrder());
    await payLinesByHand((await getDb().shop.findFirstOrThrow()).id);
    await deliver("refunds/create", fixtureText("refunds_create.json")); // every line refunded
    const { rows } = await commissionsOf();
    const negative = rows.filter((r) => r.kind === "refund");
    expect(negative).toEqual([
      { affiliateId: ids.a, level: 1, kind: "refund", amount: -4050, status: "approved" },
      { affiliateId: ids.b, level: 2, kind: "refund", amount: -1215, status: "approved" },
      { affiliateId: ids.c, level: 3, kind: "refund", amount: -405, status: "approved" },
    ]);
    const balance = await getDb().commission.aggregate({
      where: { affiliateId: ids.a, status: "approved", payoutId: null },
      _sum: { amount: true },
    });
    expect(balance._sum.amount).toBe(-4050);
  });

  it("writes a burst of refunds in the orders' batch: each applied once, after its order, in one short write", async () => {
    // Orders and their refunds queued together (one refund delivered twice),
    // then one drain: a refund in the same batch as its order finds it.
    const orderIds = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => 7_000_000_000_000_000 + i);
    for (const id of orderIds)
      expect(
        (
          await send(
            "orders/create",
            orderWith((o) => {
              o.id = id;
              o.admin_graphql_api_id = `gid://shopify/Order/${id}`;
              o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
            }),
          )
        ).status,
      ).toBe(200);
    const refundOf = (id: number) =>
      fixtureWith("refunds_create.json", (r) => {
        r.refund_line_items = r.refund_line_items.slice(0, 2);
        r.order_id = id;
        r.id = id + 1;
        r.admin_graphql_api_id = `gid://shopify/Refund/${id + 1}`;
      });
    for (const id of orderIds) expect((await send("refunds/create", refundOf(id))).status).toBe(200);
    expect((await send("refunds/create", refundOf(orderIds[0]!))).status).toBe(200);
    const holdsBefore = writeLockHolds().webhook?.count ?? 0;
    await drainJobs();
    for (const id of orderIds) {
      const { order, rows } = await commissionsOf(`gid://shopify/Order/${id}`);
      expect(order.refundedAmount).toBe(8999 + 1999);
      expect(JSON.parse(order.refundGids)).toEqual([`gid://shopify/Refund/${id + 1}`]);
      expect(rows.filter((r) => r.kind === "refund").map((r) => [r.level, r.amount, r.status])).toEqual([
        [1, -1074, "pending"],
        [2, -322, "pending"],
        [3, -107, "pending"],
      ]);
    }
    // Each refund line is announced once.
    const announced = await getDb().domainEvent.findMany({
      where: { type: "commission.created" },
      select: { data: true },
    });
    expect(announced.filter((e) => JSON.parse(e.data).kind === "refund")).toHaveLength(orderIds.length * 3);
    const events = await getDb().webhookEvent.findMany({ where: { topic: "refunds/create" } });
    expect(events.map((e) => e.processedAt !== null)).toEqual(events.map(() => true));
    // On SQLite the refunds were written by the batch on the worker's own
    // connection: a few holds for all nine, not a Prisma transaction each.
    // How few follows the machine (write-slice.ts sizes slices by the time
    // a job took): one or two on a quiet machine, three seen in a full run.
    if (database.current().provider === "sqlite")
      expect((writeLockHolds().webhook?.count ?? 0) - holdsBefore).toBeLessThanOrEqual(4);
  });

  it("voids unpaid commissions when the order is cancelled", async () => {
    await deliver("orders/create", couponOrder());
    await deliver(
      "orders/cancelled",
      orderWith((o) => {
        o.discount_codes = [{ code: "ANNA10" }];
        o.cancelled_at = "2026-01-05T10:00:00Z";
      }),
    );
    const { order, rows } = await commissionsOf();
    expect(order.status).toBe("void");
    expect(order.cancelledAt?.toISOString()).toBe("2026-01-05T10:00:00.000Z");
    expect(rows.map((r) => r.status)).toEqual(["void", "void", "void"]);
  });

  it("approves automatically after the campaign's hold, through a durable scheduled job", async () => {
    await getDb().campaign.update({
      where: { id: ids.campaign },
      data: { autoApproveOrders: true, approvalHoldDays: 14 },
    });
    await deliver(
      "orders/create",
      orderWith((o) => {
        o.discount_codes = [{ code: "ANNA10" }];
        o.processed_at = new Date().toISOString();
      }),
    );
    let { order } = await commissionsOf();
    expect(order.status).toBe("pending");
    const job = await getDb().job.findUniqueOrThrow({ where: { uniqueKey: `approve:${order.id}` } });
    expect(job.runAt.getTime()).toBe(order.placedAt.getTime() + 14 * 86_400_000);
    // Time passes: the hold ends.
    await getDb().order.update({ where: { id: order.id }, data: { approveAfter: new Date(Date.now() - 1000) } });
    await getDb().job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await drainJobs();
    ({ order } = await commissionsOf());
    expect(order.status).toBe("approved");
    expect((await commissionsOf()).rows.map((r) => r.status)).toEqual(["approved", "approved", "approved"]);
  });

  it("approves at once when the campaign auto-approves without a hold", async () => {
    await getDb().campaign.update({
      where: { id: ids.campaign },
      data: { autoApproveOrders: true, approvalHoldDays: 0 },
    });
    await deliver("orders/create", couponOrder());
    expect((await commissionsOf()).order.status).toBe("approved");
  });

  it("loses nothing when a worker dies while processing: the job is taken again", async () => {
    const res = await send("orders/create", couponOrder());
    expect(res.status).toBe(200);
    // A worker claims the job and dies before committing (its transaction is
    // rolled back with it; only the claim remains).
    const job = await getDb().job.findFirstOrThrow({ where: { type: "webhook" } });
    await getDb().job.update({
      where: { id: job.id },
      data: { status: "running", lockedBy: "dead-worker", lockedUntil: new Date(Date.now() + 60_000), attempts: 1 },
    });
    expect(await createJobWorker().runDue()).toBe(0); // the lease still holds
    await getDb().job.update({ where: { id: job.id }, data: { lockedUntil: new Date(Date.now() - 1) } });
    expect(await createJobWorker().runDue()).toBe(1);
    const { rows } = await commissionsOf();
    expect(rows).toHaveLength(3);
    expect((await getDb().job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("done");
  });

  it("fails a webhook whose payload is not valid at once (no retry can mend it) and keeps the error", async () => {
    await send("orders/create", '{"not": "an order"}'.replace("}", ', "admin_graphql_api_id": 1}'));
    await drainJobs({ logger: { error: () => {}, info: () => {} } });
    const job = await getDb().job.findFirstOrThrow({ where: { type: "webhook" } });
    expect(job.status).toBe("failed");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/payload is not valid \(Malformed orders\/create body: /);
  });

  it("retries a job that failed for a passing reason later and keeps the error", async () => {
    // A job type of this test only: the app's registry is fixed at compile time.
    let calls = 0;
    const flaky = {
      payload: z.object({}),
      run: async () => {
        calls++;
        throw new Error("the database went away");
      },
    };
    await insertJob(getDb(), "test.flaky", "{}");
    await new JobWorker({ "test.flaky": flaky }, { logger: { error: () => {}, info: () => {} } }).runDue();
    const job = await getDb().job.findFirstOrThrow({ where: { type: "test.flaky" } });
    expect(calls).toBe(1);
    expect(job.status).toBe("queued");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/the database went away/);
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("app and privacy webhooks", () => {
  it("customers/data_request exports, customers/redact erases the customer's data", async () => {
    await deliver("orders/create", couponOrder());
    const customer = { id: 115310627314723954, email: "jon@example.com" };
    const request = JSON.stringify({
      shop_id: 1,
      shop_domain: SHOP,
      orders_requested: [820982911946154508],
      customer,
      data_request: { id: 9999 },
    });
    await deliver("customers/data_request", request);
    const exported = await getDb().customerDataExport.findFirstOrThrow({ where: { shopId: ids.shop } });
    expect(JSON.parse(exported.data).orders[0].customerEmail).toBe("jon@example.com");
    await deliver(
      "customers/redact",
      JSON.stringify({ shop_id: 1, shop_domain: SHOP, customer, orders_to_redact: [] }),
    );
    const { order } = await commissionsOf();
    expect(order.customerEmail).toBeNull();
    expect(order.customerGid).toBeNull();
  });

  it("app/uninstalled removes tokens now and schedules the erasure 48 hours later; shop/redact erases", async () => {
    await getDb().session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "x", accessToken: "tok" } });
    await deliver("orders/create", couponOrder());
    await deliver("app/uninstalled", uninstalledBody(SHOP));
    expect(await getDb().session.count()).toBe(0);
    const shop = await getDb().shop.findUniqueOrThrow({ where: { domain: SHOP } });
    expect(shop.uninstalledAt).not.toBeNull();
    const erase = await getDb().job.findFirstOrThrow({ where: { type: "shop.erase" } });
    expect(erase.runAt.getTime() - shop.uninstalledAt!.getTime()).toBe(48 * 3600 * 1000);
    // Orders arriving after uninstall are not tracked.
    await deliver(
      "orders/create",
      orderWith((o) => (o.admin_graphql_api_id = "gid://shopify/Order/1")),
    );
    expect(await getDb().order.count()).toBe(1);
    await deliver("shop/redact", JSON.stringify({ shop_id: 1, shop_domain: SHOP }));
    expect(await getDb().shop.count()).toBe(0);
    expect(await getDb().order.count()).toBe(0);
    expect(await getDb().affiliate.count()).toBe(0);
  });

  it("refuses unknown topics and unsigned compliance webhooks", async () => {
    const body = JSON.stringify({ shop_domain: SHOP });
    expect((await send("collections/create", body)).status).toBe(400);
    expect((await send("shop/redact", body, { "x-shopify-hmac-sha256": "bad" })).status).toBe(401);
    expect(await getDb().shop.count()).toBe(1);
  });
});

describe("products webhooks", () => {
  const PRODUCT = "788032119674292922"; // 18 digits: beyond 2^53
  const GID = `gid://shopify/Product/${PRODUCT}`;
  const product = (title: string) =>
    `{"id":${PRODUCT},"admin_graphql_api_id":"${GID}","title":"${title}","handle":"example-t-shirt","status":"active","image":{"src":"https://cdn.example/t.png"}}`;

  it("keeps the portal's catalogue in step: create, update (collections read afresh), delete", async () => {
    await deliver("products/create", product("Example T-Shirt"));
    expect(
      await getDb().product.findMany({
        where: { shopId: ids.shop },
        select: { gid: true, title: true, imageUrl: true },
      }),
    ).toEqual([{ gid: GID, title: "Example T-Shirt", imageUrl: "https://cdn.example/t.png" }]);
    await getDb().productCollections.create({
      data: { shopId: ids.shop, productGid: GID, collectionGids: "[]", fetchedAt: new Date() },
    });
    await deliver("products/update", product("Example T-Shirt (new)"));
    expect((await getDb().product.findFirstOrThrow({ where: { shopId: ids.shop } })).title).toBe(
      "Example T-Shirt (new)",
    );
    expect(await getDb().productCollections.count({ where: { shopId: ids.shop } })).toBe(0);
    await deliver("products/delete", `{"id":${PRODUCT}}`);
    expect(await getDb().product.count({ where: { shopId: ids.shop } })).toBe(0);
  });
});

describe("a busy SQLite write lock", () => {
  // Another writer (the job worker, a click burst) holds SQLite's lock.
  async function withLockHeld<T>(ms: number, during: () => Promise<T>): Promise<T | undefined> {
    const target = parseDatabaseUrl(database.current().url);
    if (target.provider !== "sqlite") return undefined; // PostgreSQL has row locks, no file lock
    const locker = new Database(target.file);
    locker.exec("BEGIN IMMEDIATE");
    const release = setTimeout(() => locker.inTransaction && locker.exec("COMMIT"), ms);
    try {
      return await during();
    } finally {
      clearTimeout(release);
      if (locker.inTransaction) locker.exec("ROLLBACK");
      locker.close();
    }
  }

  it("stores the webhook once the lock is free, then answers 200", async () => {
    const body = couponOrder();
    const res = await withLockHeld(300, () => send("orders/create", body));
    if (!res) return;
    expect(res.status).toBe(200);
    expect(await getDb().webhookEvent.count()).toBe(1);
  });

  it("answers 503 (Shopify delivers again), never 500, when the lock stays held past Shopify's wait", async () => {
    const body = couponOrder();
    const headers = { "x-shopify-webhook-id": "busy-delivery-1" };
    const res = await withLockHeld(6000, () => send("orders/create", body, headers));
    if (!res) return;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("busy");
    expect(await getDb().webhookEvent.count()).toBe(0);
    // Shopify's next delivery of the same webhook is stored and processed.
    await deliver("orders/create", body, headers);
    expect((await commissionsOf()).rows).toHaveLength(3);
  }, 20_000);
});

describe("the shop named in the body (Shopify signs the body, not the headers)", () => {
  const OTHER = "other-shop.myshopify.com";
  let otherId: string;
  beforeEach(async () => {
    const other = await getDb().shop.create({
      data: {
        domain: OTHER,
        name: "Other",
        url: `https://${OTHER}`,
        adminEmail: "o@other.example",
        pricingPlan: "growth",
      },
    });
    otherId = other.id;
    const campaign = await getDb().campaign.create({ data: { shopId: other.id, name: "Theirs", status: "active" } });
    const aff = await getDb().affiliate.create({
      data: {
        shopId: other.id,
        campaignId: campaign.id,
        email: "anna@other.example",
        firstName: "Anna",
        lastName: "Other",
        status: "approved",
        referralCode: "ANNA",
      },
    });
    await getDb().coupon.create({ data: { shopId: other.id, affiliateId: aff.id, code: "ANNA10" } });
  });

  async function nothingStored() {
    await drainJobs();
    expect(await getDb().webhookEvent.count()).toBe(0);
    expect(await getDb().job.count()).toBe(0);
  }

  it("refuses an order replayed under another installed shop's domain: 400, nothing stored", async () => {
    const res = await send("orders/create", couponOrder(), {}, OTHER);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/names the shop webhook-shop\.myshopify\.com/);
    await nothingStored();
    expect(await getDb().order.count()).toBe(0);
    // The same body under its own shop's domain is taken.
    await deliver("orders/create", couponOrder());
    expect(await getDb().order.count({ where: { shopId: ids.shop } })).toBe(1);
  });

  it("refuses an order on a storefront domain that belongs to another installed shop", async () => {
    await getDb().shop.update({ where: { id: ids.shop }, data: { url: "https://www.webhook-shop.example" } });
    const onStorefront = orderWith((o) => {
      o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
      o.order_status_url = "https://www.webhook-shop.example/548380009/orders/123456abcd/authenticate?key=abcdefg";
    });
    expect((await send("orders/create", onStorefront, {}, OTHER)).status).toBe(400);
    await nothingStored();
    // Under its own shop it is taken; a storefront domain nobody here has is not proof of anything.
    await deliver("orders/create", onStorefront);
    await deliver(
      "orders/paid",
      orderWith((o) => {
        o.admin_graphql_api_id = "gid://shopify/Order/2";
        o.order_status_url = "https://shop.unknown.example/1/orders/x/authenticate?key=y";
      }),
    );
    expect(await getDb().order.count({ where: { shopId: ids.shop } })).toBe(2);
  });

  it("refuses app/uninstalled and the privacy webhooks naming another shop, and changes nothing", async () => {
    const customer = { id: 115310627314723954, email: "jon@example.com" };
    const bodies: [string, string][] = [
      ["app/uninstalled", uninstalledBody(SHOP)],
      ["customers/redact", JSON.stringify({ shop_id: 1, shop_domain: SHOP, customer, orders_to_redact: [] })],
      ["customers/data_request", JSON.stringify({ shop_id: 1, shop_domain: SHOP, customer, data_request: { id: 1 } })],
      ["shop/redact", JSON.stringify({ shop_id: 1, shop_domain: SHOP })],
    ];
    for (const [topic, body] of bodies) expect((await send(topic, body, {}, OTHER)).status, topic).toBe(400);
    await nothingStored();
    expect(await getDb().shop.findUniqueOrThrow({ where: { id: otherId } })).toMatchObject({ uninstalledAt: null });
  });

  it("does not erase a shop that is installed: shop/redact comes 48 hours after an uninstall", async () => {
    const res = await send("shop/redact", JSON.stringify({ shop_id: 2, shop_domain: OTHER }), {}, OTHER);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ignored: expect.stringMatching(/installed/) });
    await nothingStored();
    expect(await getDb().shop.count({ where: { id: otherId } })).toBe(1);
    expect(await getDb().affiliate.count({ where: { shopId: otherId } })).toBe(1);
  });

  it("refuses a header that is not a shop's myshopify.com domain", async () => {
    expect((await send("orders/create", couponOrder(), {}, "evil.example")).status).toBe(400);
    await nothingStored();
  });
});

describe("malformed webhooks", () => {
  it("answers customers/redact and customers/data_request without a customer with 400, storing nothing", async () => {
    for (const topic of ["customers/redact", "customers/data_request"]) {
      for (const body of [
        JSON.stringify({ shop_id: 1, shop_domain: SHOP }),
        JSON.stringify({ shop_id: 1, shop_domain: SHOP, customer: null }),
        JSON.stringify({ shop_id: 1, shop_domain: SHOP, customer: {} }),
        "not json",
      ]) {
        const res = await send(topic, body);
        expect(res.status, `${topic} ${body}`).toBe(400);
        expect((await res.json()).error.message).toMatch(/customer|JSON/);
      }
    }
    expect(await getDb().webhookEvent.count()).toBe(0);
  });

  it("fails a malformed order once, without retries, and writes the rest of its batch together", async () => {
    const good = (n: number) =>
      orderWith((o) => {
        o.admin_graphql_api_id = `gid://shopify/Order/${n}`;
        o.discount_codes = [{ code: "anna10", amount: "20.00", type: "fixed_amount" }];
      });
    const bad = JSON.stringify({ admin_graphql_api_id: 3, line_items: "none" });
    for (const body of [good(1), bad, good(2)]) expect((await send("orders/create", body)).status).toBe(200);
    const lines: string[] = [];
    const log = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    const worker = createJobWorker({ logger: { info: log, error: log } });
    expect(await worker.runDue()).toBe(3);
    await worker.stop();
    // No "batch failed, one by one": one line, for the bad member.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[jobs\] webhook \S+ not processed: the payload is not valid \(Malformed orders\/create body/,
    );
    expect(await getDb().order.count()).toBe(2);
    const jobs = await getDb().job.findMany({ where: { type: "webhook" }, orderBy: { createdAt: "asc" } });
    expect(jobs.map((j) => j.status).sort()).toEqual(["done", "done", "failed"]);
    const failed = jobs.find((j) => j.status === "failed")!;
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/admin_graphql_api_id: Expected string/);
    // Nothing left to retry (the jobs that run now are the valid orders' domain events).
    await drainJobs();
    expect((await getDb().job.findUniqueOrThrow({ where: { id: failed.id } })).attempts).toBe(1);
  });

  it("fails a malformed product body once, storing nothing", async () => {
    await send("products/create", `{"id":1,"title":"no gid"}`);
    await drainJobs({ logger: { error: () => {}, info: () => {} } });
    expect(await getDb().product.count()).toBe(0);
    const job = await getDb().job.findFirstOrThrow({ where: { type: "webhook" } });
    expect(job.status).toBe("failed");
    expect(job.lastError).toMatch(/admin_graphql_api_id/);
  });
});
