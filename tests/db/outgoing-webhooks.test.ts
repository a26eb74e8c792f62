import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { getDb } from "~/db.server";
import { dispatchEvent } from "~/worker/dispatch-event.server";
import { emitEvent } from "~/models/events/emit-event.server";
import type { EventData, EventType } from "~/models/events/event-types";
import { enqueueJob } from "~/models/jobs/enqueue.server";
import { drainJobs } from "~/worker/job-registry.server";
import { RETRY_DELAYS_SECONDS } from "~/models/webhooks-out/retry-schedule";
import { WEBHOOK_BODY_SCHEMAS } from "~/models/webhooks-out/webhook-schemas";
import { postWebhook } from "~/models/webhooks-out/post-webhook.server";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiClient, buildApiKey, buildOrder, buildCommission } from "../support/api-builders";
import { msg } from "~/i18n/messages";
import { buildAdvocate, buildAffiliate, buildCampaign, buildReferral, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// Outgoing webhooks end to end: endpoints registered over the REST API,
// events emitted the way domain code does, the event.dispatch and
// webhooks.deliver jobs run by the real job queue, and a real HTTP receiver
// on loopback that checks every request with the Standard Webhooks library's
// own verifier. Receivers run on 127.0.0.1, so private addresses are allowed
// here (outgoing-webhooks-ssrf.test.ts checks the refusals).
applyTestEnv({ WEBHOOKS_ALLOW_PRIVATE: "1" });
useTestDatabase();
useNoRenderUnderWriteLock();
const server = useTestServer();

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await new WebhookReceiver().start();
});
afterEach(async () => {
  await receiver.stop();
});

async function setUp(eventTypes: string[], url = receiver.url()) {
  const shop = await buildShop();
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id, { email: "ada@example.com" });
  const { key } = await buildApiKey(shop.id);
  const api = new ApiClient(server.url, key);
  const res = await api.post("/api/v1/webhook-endpoints", { url, description: "CRM", event_types: eventTypes });
  expect(res.status).toBe(201);
  const endpoint = (await res.json()) as { id: string; secret: string; event_types: string[] };
  return { shop, campaign, affiliate, api, endpoint };
}

async function emit<T extends EventType>(shopId: string, type: T, data: EventData<T>) {
  return getDb().$transaction((tx) => emitEvent(tx, shopId, type, data));
}

/** Runs the jobs due now, then brings the next waiting retry forward and runs it (the back-off, without the wait). */
async function runNextRetry() {
  const job = await getDb().job.findFirst({
    where: { type: "webhooks.deliver", status: "queued" },
    orderBy: { runAt: "asc" },
  });
  if (!job) return null;
  await getDb().job.update({ where: { id: job.id }, data: { runAt: new Date() } });
  await drainJobs();
  return job;
}

function verify(secret: string, index = 0) {
  const request = receiver.received[index]!;
  const headers = {
    "webhook-id": String(request.headers["webhook-id"]),
    "webhook-timestamp": String(request.headers["webhook-timestamp"]),
    "webhook-signature": String(request.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(request.body, headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}

describe("delivery", () => {
  it("posts a subscribed event once, signed so that the Standard Webhooks verifier accepts it", async () => {
    const { shop, affiliate, endpoint } = await setUp(["affiliate.approved", "sale.credited"]);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const eventId = await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    // Not subscribed: nothing is sent for it.
    await emit(shop.id, "affiliate.created", { affiliateId: affiliate.id, status: "pending" });
    await drainJobs();

    expect(receiver.received).toHaveLength(1);
    const body = verify(endpoint.secret);
    const event = await getDb().domainEvent.findUniqueOrThrow({ where: { id: eventId } });
    expect(body.type).toBe("affiliate.approved");
    expect(body.timestamp).toBe(event.createdAt.toISOString());
    // The public API's one wire case (snake_case), and exactly the published schema.
    expect(body.data).toMatchObject({
      affiliate_id: affiliate.id,
      affiliate: {
        id: affiliate.id,
        email: "ada@example.com",
        status: "approved",
        referral_code: affiliate.referralCode,
      },
    });
    expect(WEBHOOK_BODY_SCHEMAS["affiliate.approved"].parse(body)).toEqual(body);
    const delivery = await getDb().webhookDelivery.findFirstOrThrow({ where: { eventId } });
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(`msg_${delivery.id}`);
    expect(receiver.received[0]!.headers["content-type"]).toBe("application/json");
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
    const attempts = await getDb().webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(attempts).toMatchObject([{ number: 1, statusCode: 200, ok: true, responseExcerpt: "ok" }]);

    // A signature made with another secret is refused by the same verifier.
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString("base64")}`)).toThrow();
  });

  it("carries the referral of referral.created as the REST API shows it", async () => {
    const { shop, endpoint } = await setUp(["referral.created"]);
    const advocate = await buildAdvocate(shop.id, { email: "grace@example.com" });
    const holdUntil = new Date("2026-12-01T00:00:00.000Z");
    const referral = await buildReferral(shop.id, advocate.id, {
      orderGid: "gid://shopify/Order/4242",
      orderName: "#4242",
      orderTotal: 12_500,
      currency: "EUR",
      friendEmail: "annabel@example.com",
      source: "link",
      reason: msg("Referrals:reason.link", { advocate: "grace@example.com" }),
      rewardKind: "store_credit",
      rewardValue: 1_000,
      rewardCurrency: "EUR",
      holdUntil,
    });
    await emit(shop.id, "referral.created", { referralId: referral.id });
    await drainJobs();

    expect(receiver.received).toHaveLength(1);
    const body = verify(endpoint.secret);
    expect(body.type).toBe("referral.created");
    expect(body.data).toMatchObject({
      referral_id: referral.id,
      referral: {
        id: referral.id,
        status: "pending",
        source: "link",
        reason: "Credited to grace@example.com: the friend came through their share link.",
        advocate: { id: advocate.id, email: "grace@example.com" },
        friend_email: "an***@example.com",
        order_gid: "gid://shopify/Order/4242",
        order_name: "#4242",
        order_total: 12_500,
        currency: "EUR",
        reward: { kind: "store_credit", amount: 1_000, currency: "EUR", percent_bps: null },
        hold_until: holdUntil.toISOString(),
        created_at: referral.createdAt.toISOString(),
      },
    });
    // The same object the REST API answers for this referral.
    const { key } = await buildApiKey(shop.id);
    const rest = await new ApiClient(server.url, key).get(`/api/v1/referrals/${referral.id}`);
    expect(body.data.referral).toEqual(await rest.json());
  });

  it("carries the sale and the commission of commission events", async () => {
    const { shop, affiliate, endpoint } = await setUp(["commission.created"]);
    const order = await buildOrder(shop.id, { affiliateId: affiliate.id });
    const commission = await buildCommission(shop.id, order.id, affiliate.id);
    await emit(shop.id, "commission.created", {
      commissionId: commission.id,
      affiliateId: affiliate.id,
      orderId: order.id,
      kind: "sale",
      amount: commission.amount,
      currency: commission.currency,
    });
    await drainJobs();
    const body = verify(endpoint.secret);
    expect(body.data).toMatchObject({
      commission_id: commission.id,
      amount: commission.amount,
      commission: { id: commission.id, amount: commission.amount, currency: commission.currency },
      sale: { id: order.id, name: order.name, total: order.total },
      affiliate: { id: affiliate.id },
    });
  });

  it("gets the event to a receiver that fails three times on the fourth try, once, with the same webhook-id", async () => {
    receiver.answer = (_request, index) => (index < 3 ? { status: 503, body: "busy" } : { status: 204 });
    const { shop, affiliate, endpoint } = await setUp(["affiliate.approved"]);
    const eventId = await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    await drainJobs();
    expect(receiver.received).toHaveLength(1);

    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const delivery = await getDb().webhookDelivery.findFirstOrThrow({ where: { eventId } });
      const last = await getDb().webhookAttempt.findFirstOrThrow({
        where: { deliveryId: delivery.id },
        orderBy: { number: "desc" },
      });
      expect(delivery.status).toBe("pending");
      waits.push(Math.round((delivery.nextAttemptAt!.getTime() - last.startedAt.getTime()) / 1000));
      expect(await runNextRetry()).not.toBeNull();
    }
    // Exponential back-off: 5 s, 5 min, 30 min (plus the attempt's own duration).
    expect(waits.map((w, i) => w >= RETRY_DELAYS_SECONDS[i]! && w <= RETRY_DELAYS_SECONDS[i]! + 5)).toEqual([
      true,
      true,
      true,
    ]);

    expect(receiver.received).toHaveLength(4);
    const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    for (let i = 0; i < 4; i++) expect(verify(endpoint.secret, i).type).toBe("affiliate.approved");
    const delivery = await getDb().webhookDelivery.findFirstOrThrow({
      where: { eventId },
      include: { attemptsLog: { orderBy: { number: "asc" } } },
    });
    expect(delivery).toMatchObject({ status: "delivered", attempts: 4, lastStatusCode: 204, nextAttemptAt: null });
    expect(delivery.attemptsLog.map((a) => [a.number, a.statusCode, a.ok])).toEqual([
      [1, 503, false],
      [2, 503, false],
      [3, 503, false],
      [4, 204, true],
    ]);
    expect(delivery.attemptsLog[0]!.responseExcerpt).toBe("busy");

    // Delivered once: nothing is left to send.
    expect(await runNextRetry()).toBeNull();
    await drainJobs();
    expect(receiver.received.filter((r) => r.headers["webhook-id"] === `msg_${delivery.id}`)).toHaveLength(4);
    expect(await getDb().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      failingSince: null,
      enabled: true,
    });
  });

  it("gives up after eight attempts spread over about a day, and marks the delivery failed", async () => {
    receiver.answer = () => ({ status: 500, body: "down" });
    const { shop, affiliate, endpoint } = await setUp(["affiliate.approved"]);
    const eventId = await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    await drainJobs();
    let scheduled = 0;
    for (;;) {
      const delivery = await getDb().webhookDelivery.findFirstOrThrow({ where: { eventId } });
      if (!delivery.nextAttemptAt) break;
      const last = await getDb().webhookAttempt.findFirstOrThrow({
        where: { deliveryId: delivery.id },
        orderBy: { number: "desc" },
      });
      scheduled += delivery.nextAttemptAt.getTime() - last.startedAt.getTime();
      await runNextRetry();
    }
    const delivery = await getDb().webhookDelivery.findFirstOrThrow({ where: { eventId } });
    expect(delivery).toMatchObject({ status: "failed", attempts: 8 });
    expect(receiver.received).toHaveLength(8);
    expect(scheduled / 3_600_000).toBeGreaterThan(20);
    expect(scheduled / 3_600_000).toBeLessThan(28);
    expect(await getDb().job.count({ where: { type: "webhooks.deliver", status: "queued" } })).toBe(0);
    // The endpoint is failing, but not yet for days: it stays on.
    const row = await getDb().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.failingSince).toBeInstanceOf(Date);
    expect(row.enabled).toBe(true);
  });

  it("turns off an endpoint whose deliveries have failed for five days", async () => {
    receiver.answer = () => ({ status: 500 });
    const { shop, affiliate, endpoint } = await setUp(["affiliate.approved"]);
    await getDb().webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { failingSince: new Date(Date.now() - 5 * 24 * 3600 * 1000 - 1000) },
    });
    await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    await drainJobs();
    expect(await getDb().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: false,
      disabledReason: "failing",
    });
    // Turned off: the retry waiting for it sends nothing, and new events make no deliveries.
    await runNextRetry();
    await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    await drainJobs();
    expect(receiver.received).toHaveLength(1);
  });

  it("makes no second delivery when event.dispatch runs again for the same event", async () => {
    const { shop, affiliate } = await setUp(["affiliate.approved"]);
    const eventId = await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    await drainJobs();
    // A replayed dispatch job, and the subscriber called directly twice more.
    await enqueueJob(getDb(), "event.dispatch", { eventId });
    await drainJobs();
    await dispatchEvent(eventId);
    await dispatchEvent(eventId);
    await drainJobs();
    expect(receiver.received).toHaveLength(1);
    expect(await getDb().webhookDelivery.count({ where: { eventId } })).toBe(1);
  });

  it("sends to a slow receiver several at a time, so one slow receiver does not hold up the queue", async () => {
    receiver.delayMs = 300;
    const { shop, affiliate } = await setUp(["affiliate.approved"]);
    for (let i = 0; i < 8; i++) await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    await drainJobs();
    expect(receiver.received).toHaveLength(8);
    expect(receiver.maxInFlight).toBeGreaterThan(1);
    expect(await getDb().webhookDelivery.count({ where: { status: "delivered" } })).toBe(8);
  });

  it("follows no redirect and reads only the start of a large answer", async () => {
    receiver.answer = (request) =>
      request.path === "/moved"
        ? { status: 302, headers: { location: receiver.url("/elsewhere") }, body: "see elsewhere" }
        : { status: 200, body: "x".repeat(1_000_000) };
    const { shop, affiliate } = await setUp(["affiliate.approved"], receiver.url("/moved"));
    await emit(shop.id, "affiliate.approved", { affiliateId: affiliate.id });
    await drainJobs();
    expect(receiver.received.map((r) => r.path)).toEqual(["/moved"]);
    const attempt = await getDb().webhookAttempt.findFirstOrThrow({});
    expect(attempt).toMatchObject({ statusCode: 302, ok: false, responseExcerpt: "see elsewhere" });

    const big = await setUp(["affiliate.approved"], receiver.url("/big"));
    await emit(big.shop.id, "affiliate.approved", { affiliateId: big.affiliate.id });
    await drainJobs();
    const ok = await getDb().webhookAttempt.findFirstOrThrow({ where: { ok: true } });
    expect(ok.statusCode).toBe(200);
    expect(ok.responseExcerpt.length).toBe(1000);
  });
});

describe("one POST", () => {
  it("gives up on a receiver that does not answer in time", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`;
      const result = await postWebhook(url, {}, "{}", { allowPrivate: true, timeoutMs: 300 });
      expect(result).toMatchObject({ statusCode: null, ok: false, excerpt: "" });
      expect(result.error).toMatch(/no answer within/);
      expect(result.durationMs).toBeGreaterThanOrEqual(250);
      expect(result.durationMs).toBeLessThan(5000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe("REST API /api/v1/webhook-endpoints", () => {
  it("lists endpoints without their secrets, and deletes them", async () => {
    const { api, endpoint, shop } = await setUp(["payout.paid", "payout.failed", "payout.paid"]);
    expect(endpoint.event_types).toEqual(["payout.paid", "payout.failed"]);
    const list = await api.get("/api/v1/webhook-endpoints");
    expect(list.status).toBe(200);
    const body = (await list.json()) as { data: Record<string, unknown>[]; next_cursor: null };
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ id: endpoint.id, url: receiver.url(), enabled: true, disabled_reason: null });
    expect(body.data[0]).not.toHaveProperty("secret");
    expect(JSON.stringify(body)).not.toContain(endpoint.secret);

    // Another shop cannot see or delete it.
    const other = await buildApiKey((await buildShop()).id);
    const otherApi = new ApiClient(server.url, other.key);
    expect(((await (await otherApi.get("/api/v1/webhook-endpoints")).json()) as { data: unknown[] }).data).toEqual([]);
    expect((await otherApi.request(`/api/v1/webhook-endpoints/${endpoint.id}`, { method: "DELETE" })).status).toBe(404);

    const del = await api.request(`/api/v1/webhook-endpoints/${endpoint.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await getDb().webhookEndpoint.count({ where: { shopId: shop.id } })).toBe(0);
    expect((await api.request(`/api/v1/webhook-endpoints/${endpoint.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses bad input with 422 and changes nothing", async () => {
    const { api, shop } = await setUp(["affiliate.created"]);
    const cases = [
      { url: "ftp://example.com/x", event_types: ["affiliate.created"] },
      { url: "not a url", event_types: ["affiliate.created"] },
      { url: receiver.url(), event_types: [] },
      { url: receiver.url(), event_types: ["affiliate.exploded"] },
      { url: receiver.url() },
    ];
    for (const body of cases) {
      const res = await api.post("/api/v1/webhook-endpoints", body);
      expect(res.status).toBe(422);
      const error = ((await res.json()) as { error: { code: string; fields: Record<string, string> } }).error;
      expect(error.code).toBe("validation_failed");
      expect(Object.keys(error.fields).length).toBeGreaterThan(0);
    }
    expect(await getDb().webhookEndpoint.count({ where: { shopId: shop.id } })).toBe(1);
  });

  it("is in the OpenAPI document with the event payloads", async () => {
    const res = await fetch(server.url("/api/v1/openapi.json"));
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths["/api/v1/webhook-endpoints"]!)).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(doc.paths["/api/v1/webhook-endpoints/{id}"]!)).toEqual(["delete"]);
    for (const type of [
      "affiliate_created",
      "sale_credited",
      "commission_updated",
      "payout_failed",
      "referral_created",
    ])
      expect(doc.components.schemas).toHaveProperty(`WebhookEvent_${type}`);
    expect(JSON.stringify(doc.components.schemas["WebhookEvent_payout_failed"])).toContain("reason");
    const referralCreated = JSON.stringify(doc.components.schemas["WebhookEvent_referral_created"]);
    for (const field of ["friend_email", "order_gid", "hold_until", "created_at", "percent_bps"])
      expect(referralCreated).toContain(field);
  });
});
