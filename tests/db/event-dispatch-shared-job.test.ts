import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { prismaBulk } from "~/db/bulk-sql.server";
import { dialectOf } from "~/db/dialect";
import { ingestWebhook } from "~/db/webhook-store.server";
import { emitEvent, emitEvents, EVENTS_PER_DISPATCH_JOB } from "~/models/events/emit-event.server";
import { enqueueJob } from "~/models/jobs/enqueue.server";
import { processEvent } from "~/models/webhooks/process-webhook.server";
import { planEventDispatch } from "~/worker/dispatch-events-batch.server";
import { drainJobs, JOBS } from "~/worker/job-registry.server";
import { buildAffiliate, buildCampaign, buildListeningShop } from "../support/builders";
import { useNoRenderUnderWriteLock } from "../support/render-guard";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useWebhookReceiver } from "../support/webhook-receiver-hooks";
import { fixtureWith, orderStatusUrl } from "../support/webhooks";

// The events of one bulk write (an order's sale and commissions, a bulk
// approval) share one event.dispatch job instead of a job each. A shared job
// must dispatch exactly what the same events did with a job each: the same
// e-mails, webhook deliveries and Flow triggers, nothing more on a replay,
// and an event whose row cannot be read handled on its own as before. Jobs
// queued before the change ({ eventId }) still run.

applyTestEnv({ WEBHOOKS_ALLOW_PRIVATE: "1" });
const sim = useStoreSimulator();
useTestDatabase();
useNoRenderUnderWriteLock();
const receivers = useWebhookReceiver();

const EVERY_TYPE = ["sale.credited", "commission.created", "affiliate.approved"];

/** A shop that hears everything (a webhook endpoint, Flow), with a two-level team whose leaf has a coupon. */
async function team(domain: string) {
  const db = getDb();
  const shop = await buildListeningShop(domain, {
    accessToken: sim.accessToken(domain),
    url: receivers.current().url(`/${domain}`),
    eventTypes: EVERY_TYPE,
  });
  const campaign = await db.campaign.update({
    where: { id: (await buildCampaign(shop.id)).id },
    data: { commissionType: "percent", commissionValue: 1000 },
  });
  await db.campaignLevel.create({ data: { campaignId: campaign.id, level: 2, basis: "percent_of_sale", rate: 300 } });
  const lead = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: `lead@${domain}` });
  const anna = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: `anna@${domain}` });
  await db.affiliate.update({ where: { id: anna.id }, data: { parentId: lead.id } });
  const code = `${domain.split(".")[0]!.replace(/-/g, "").toUpperCase()}10`;
  await db.coupon.create({ data: { shopId: shop.id, affiliateId: anna.id, code } });
  return { shop, campaign, anna, code };
}

/** Stores an orders/create webhook credited by the leaf's coupon; returns its WebhookEvent id. */
async function storeOrder(domain: string, couponCode: string) {
  const body = fixtureWith("orders_create.json", (o) => {
    o.cancelled_at = null;
    o.order_status_url = orderStatusUrl(domain);
    o.discount_codes = [{ code: couponCode.toLowerCase(), amount: "20.00", type: "fixed_amount" }];
  });
  const webhookId = `order-${domain}`;
  expect(
    await ingestWebhook({
      shopDomain: domain,
      topic: "orders/create",
      webhookId,
      apiVersion: "2026-07",
      rawBody: body,
    }),
  ).toBe("stored");
  return (await getDb().webhookEvent.findFirstOrThrow({ where: { webhookId } })).id;
}

const dispatchJobs = () => getDb().job.findMany({ where: { type: "event.dispatch" }, orderBy: { createdAt: "asc" } });

/** What a shop's events made and sent, in a form two shops can be compared by. */
async function written(shopId: string, domain: string) {
  const db = getDb();
  const mails = await db.outboxEmail.findMany({
    where: { shopId },
    select: { kind: true, toAddress: true, status: true },
  });
  const deliveries = await db.webhookDelivery.findMany({ where: { shopId }, select: { eventType: true } });
  const triggers = await db.flowTrigger.findMany({ where: { shopId }, select: { handle: true } });
  return {
    mails: sorted(mails.map((m) => `${m.kind} ${m.toAddress.split("@")[0]} ${m.status}`)),
    deliveries: sorted(deliveries.map((d) => d.eventType)),
    triggers: sorted(triggers.map((t) => t.handle)),
    received: receivers.current().received.filter((r) => r.path === `/${domain}`).length,
    flowSent: (sim.store.shop(domain).flowTriggers ?? []).length,
  };
}

function sorted(list: string[]) {
  return [...list].sort();
}

describe("event.dispatch jobs shared by the events of one bulk write", () => {
  it("gives an order's sale and commissions one job, which dispatches what a job per event did", async () => {
    const db = getDb();
    // One job per event, as before: the order recorded, its events each queued alone.
    const single = await team("per-event.myshopify.com");
    const singleHook = await storeOrder("per-event.myshopify.com", single.code);
    await db.$transaction((tx) => processEvent(tx, singleHook));
    await db.job.updateMany({ where: { type: "webhook" }, data: { status: "done" } });
    await db.job.deleteMany({ where: { type: "event.dispatch" } });
    const singleEvents = await db.domainEvent.findMany({ where: { shopId: single.shop.id } });
    for (const e of singleEvents) await enqueueJob(db, "event.dispatch", { eventId: e.id });
    await drainJobs();
    const expected = await written(single.shop.id, "per-event.myshopify.com");
    // A sale credited and a commission at each of two levels: something of every kind.
    expect(singleEvents).toHaveLength(3);
    expect(expected.deliveries).toEqual(["commission.created", "commission.created", "sale.credited"]);
    expect(expected.mails.length).toBeGreaterThanOrEqual(2);
    expect(expected.triggers.length).toBeGreaterThanOrEqual(1);
    expect(expected.received).toBe(3);
    await db.job.deleteMany({ where: { type: "event.dispatch" } });

    // The same order through the worker: one job for its three events.
    const shared = await team("shared.myshopify.com");
    await storeOrder("shared.myshopify.com", shared.code);
    await drainJobs();
    const jobs = await dispatchJobs();
    const events = await db.domainEvent.findMany({ where: { shopId: shared.shop.id } });
    expect(jobs).toHaveLength(1);
    expect(sorted(JSON.parse(jobs[0]!.payload).eventIds)).toEqual(sorted(events.map((e) => e.id)));
    expect(jobs[0]!.status).toBe("done");
    expect(await written(shared.shop.id, "shared.myshopify.com")).toEqual(expected);
  });

  it("slices a bulk write's events into jobs of at most EVENTS_PER_DISPATCH_JOB, and a replay adds nothing", async () => {
    const db = getDb();
    const { shop, campaign } = await team("bulk.myshopify.com");
    const count = EVENTS_PER_DISPATCH_JOB + 6;
    const affiliates: { id: string }[] = [];
    for (let i = 0; i < count; i++)
      affiliates.push(await buildAffiliate(shop.id, campaign.id, { status: "approved", email: `a${i}@bulk.example` }));
    await db.$transaction((tx) =>
      emitEvents(
        tx,
        shop.id,
        "affiliate.approved",
        affiliates.map((a) => ({ affiliateId: a.id })),
      ),
    );
    const jobs = await dispatchJobs();
    expect(jobs.map((j) => JSON.parse(j.payload).eventIds.length).sort((a, b) => b - a)).toEqual([
      EVENTS_PER_DISPATCH_JOB,
      6,
    ]);
    await drainJobs();
    const once = await written(shop.id, "bulk.myshopify.com");
    expect(once.mails.filter((m) => m.startsWith("affiliate.approved ")).length).toBe(count);
    expect(once.deliveries).toHaveLength(count);
    expect(once.triggers).toHaveLength(count);

    // A worker that died after the commit: the same jobs' batch again.
    const payloads = jobs.map((j) => JSON.parse(j.payload) as { eventIds: string[] });
    const write = await planEventDispatch(payloads, prismaBulk(db, dialectOf(db)), db);
    await db.$transaction((tx) => write(prismaBulk(tx, dialectOf(tx))));
    await drainJobs();
    expect(await written(shop.id, "bulk.myshopify.com")).toEqual(once);
  });

  it("still runs a job queued before shared jobs ({ eventId }), in the same batch as a shared one", async () => {
    const db = getDb();
    const { shop, anna } = await team("old-jobs.myshopify.com");
    const other = await buildAffiliate(
      shop.id,
      (await db.campaign.findFirstOrThrow({ where: { shopId: shop.id } })).id,
      {
        status: "approved",
        email: "other@old-jobs.example",
      },
    );
    await db.$transaction((tx) => emitEvent(tx, shop.id, "affiliate.approved", { affiliateId: anna.id }));
    await db.$transaction((tx) => emitEvents(tx, shop.id, "affiliate.approved", [{ affiliateId: other.id }]));
    const payloads = (await dispatchJobs()).map((j) => JSON.parse(j.payload));
    expect(payloads.map((p) => Object.keys(p).sort())).toEqual([["eventId"], ["eventIds"]]);
    await drainJobs();
    expect((await dispatchJobs()).map((j) => j.status)).toEqual(["done", "done"]);
    const got = await written(shop.id, "old-jobs.myshopify.com");
    expect(got.deliveries).toEqual(["affiliate.approved", "affiliate.approved"]);
    expect(got.received).toBe(2);
  });

  it("hands an event whose row cannot be read to an alone job, and dispatches the others of its job", async () => {
    const db = getDb();
    const { shop, campaign } = await team("unreadable.myshopify.com");
    const a = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: "a@unreadable.example" });
    const b = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: "b@unreadable.example" });
    await db.$transaction((tx) =>
      emitEvents(tx, shop.id, "affiliate.approved", [{ affiliateId: a.id }, { affiliateId: b.id }]),
    );
    const broken = await db.domainEvent.findFirstOrThrow({ where: { shopId: shop.id, data: { contains: b.id } } });
    await db.domainEvent.update({ where: { id: broken.id }, data: { data: "{not json" } });
    await drainJobs({ logger: { info: () => {}, error: () => {} } });
    const jobs = await dispatchJobs();
    // As a job of its own whose event cannot be read: it fails with the reason, to be retried.
    expect(jobs.map((j) => [j.status, JSON.parse(j.payload), j.lastError !== null])).toEqual([
      ["done", { eventIds: expect.any(Array) }, false],
      ["queued", { eventId: broken.id, alone: true }, true],
    ]);
    const got = await written(shop.id, "unreadable.myshopify.com");
    expect(got.deliveries).toEqual(["affiliate.approved"]);
  });

  it("splits a shared job whose batch failed into an alone job per event, which dispatch as before", async () => {
    const db = getDb();
    const { shop, campaign } = await team("split.myshopify.com");
    const a = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: "a@split.example" });
    const b = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: "b@split.example" });
    await db.$transaction((tx) =>
      emitEvents(tx, shop.id, "affiliate.approved", [{ affiliateId: a.id }, { affiliateId: b.id }]),
    );
    const [job] = await dispatchJobs();
    const payload = JOBS["event.dispatch"].payload.parse(JSON.parse(job!.payload));
    // The one-by-one path, as the worker runs each job of a failed batch.
    const write = await JOBS["event.dispatch"].plan(payload, db);
    await db.$transaction(async (tx) => {
      await write!(tx);
      await tx.job.update({ where: { id: job!.id }, data: { status: "done" } });
    });
    const split = (await dispatchJobs()).slice(1).map((j) => JSON.parse(j.payload));
    const events = await db.domainEvent.findMany({ where: { shopId: shop.id } });
    expect(sorted(split.map((p) => JSON.stringify(p)))).toEqual(
      sorted(events.map((e) => JSON.stringify({ eventId: e.id, alone: true }))),
    );
    await drainJobs();
    expect((await dispatchJobs()).every((j) => j.status === "done")).toBe(true);
    const got = await written(shop.id, "split.myshopify.com");
    expect(got.deliveries).toEqual(["affiliate.approved", "affiliate.approved"]);
    expect(got.received).toBe(2);
  });
});
