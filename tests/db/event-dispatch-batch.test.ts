import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { prismaBulk } from "~/db/bulk-sql.server";
import { dialectOf } from "~/db/dialect";
import { emitEvent } from "~/models/events/emit-event.server";
import type { EventData, EventType } from "~/models/events/event-types";
import { dispatchEvent } from "~/worker/dispatch-event.server";
import { planEventDispatch } from "~/worker/dispatch-events-batch.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildListeningShop, buildShop } from "../support/builders";
import { recordingStatements } from "../support/recording-client";
import { useStoreSimulator } from "../support/store-simulator";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useWebhookReceiver } from "../support/webhook-receiver-hooks";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// The batched event dispatch writes what the one-by-one path writes, for
// every event an order raises (a sale credited, its commissions at two
// levels, an approval) and for an approval a webhook endpoint wants: the
// same e-mails, webhook deliveries, Flow triggers, coupon and payout-refresh
// jobs. None of them is handed back as an `alone` job (each of those used to
// be a Prisma transaction of its own under SQLite's write lock), and a
// replayed batch adds nothing.

// The worker's run sends what it queued: to a receiver on loopback, and to the store simulator (Flow).
applyTestEnv({ WEBHOOKS_ALLOW_PRIVATE: "1" });
const sim = useStoreSimulator();
useTestDatabase();
useNoRenderUnderWriteLock();
const receivers = useWebhookReceiver();

const EVERY_TYPE = ["sale.credited", "commission.created", "commission.updated", "affiliate.approved"];

/** A shop that hears everything: a webhook endpoint, Flow (an offline session), a two-level team, an order. */
async function orderEvents(domain: string) {
  const db = getDb();
  const shop = await buildListeningShop(domain, {
    accessToken: sim.accessToken(domain),
    url: receivers.current().url(),
    eventTypes: EVERY_TYPE,
  });
  const campaign = await buildCampaign(shop.id);
  const parent = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: "lead@example.com" });
  const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "pending", email: "anna@example.com" });
  await db.affiliate.update({ where: { id: affiliate.id }, data: { parentId: parent.id } });
  const order = await buildOrder(shop.id, { affiliateId: affiliate.id, total: 12_000, name: "#1001" });
  const own = await buildCommission(shop.id, order.id, affiliate.id, { amount: 1_200 });
  const upline = await buildCommission(shop.id, order.id, parent.id, { amount: 300, level: 2 });
  const line = (c: { id: string; affiliateId: string; amount: number }) => ({
    commissionId: c.id,
    affiliateId: c.affiliateId,
    orderId: order.id,
    kind: "sale",
    amount: c.amount,
    currency: "USD",
  });
  const emit = <T extends EventType>(type: T, data: EventData<T>) =>
    db.$transaction((tx) => emitEvent(tx, shop.id, type, data));
  const ids = [
    await emit("affiliate.approved", { affiliateId: affiliate.id }),
    await emit("sale.credited", { orderId: order.id, affiliateId: affiliate.id }),
    await emit("commission.created", line(own)),
    await emit("commission.created", line(upline)),
    await emit("commission.updated", { ...line(own), status: "approved" }),
  ];
  return { shop, ids };
}

/** What the events' dispatch wrote for a shop, in a form two shops can be compared by. */
async function written(shopId: string) {
  const db = getDb();
  const mails = await db.outboxEmail.findMany({ where: { shopId }, select: { kind: true, toAddress: true } });
  const deliveries = await db.webhookDelivery.findMany({ where: { shopId }, select: { eventType: true } });
  const triggers = await db.flowTrigger.findMany({ where: { shopId }, select: { handle: true } });
  const jobs = await db.job.findMany({
    where: { type: { in: ["coupons.create", "payouts.refresh", "email.send", "webhooks.deliver", "flow.trigger"] } },
    select: { type: true, payload: true, uniqueKey: true },
  });
  return {
    // The merchant's address names the shop; the local part is who it is.
    mails: sorted(mails.map((m) => `${m.kind} ${m.toAddress.split("@")[0]}`)),
    deliveries: sorted(deliveries.map((d) => d.eventType)),
    triggers: sorted(triggers.map((t) => t.handle)),
    refreshes: jobs.filter((j) => j.type === "payouts.refresh" && j.payload.includes(shopId)).length,
    jobs: jobs.length,
  };
}

const aloneJobs = () => getDb().job.count({ where: { type: "event.dispatch", payload: { contains: '"alone":true' } } });

/** Dispatches the events as one batch; `seen` gets the Prisma calls of its plan's reads. */
async function runBatch(eventIds: string[], seen: string[] = []) {
  const db = getDb();
  const write = await planEventDispatch(
    eventIds.map((eventId) => ({ eventId })),
    prismaBulk(db, dialectOf(db)),
    recordingStatements(db, seen),
  );
  await db.$transaction((tx) => write(prismaBulk(tx, dialectOf(tx))));
}

describe("batched event dispatch", () => {
  it("writes for an order's events what the one-by-one path writes, and hands none back as alone", async () => {
    const one = await orderEvents("one-by-one.myshopify.com");
    for (const id of one.ids) await dispatchEvent(id);
    const expected = await written(one.shop.id);
    // Something of every kind, or the comparison below proves little.
    expect(expected.mails.length).toBeGreaterThanOrEqual(3);
    expect(expected.deliveries).toEqual(sorted(EVERY_TYPE.concat("commission.created")));
    expect(expected.triggers).toEqual(["affiliate-approved", "commission-approved", "sale-credited"]);
    expect(expected.refreshes).toBe(1);
    const jobsBefore = expected.jobs;

    const batched = await orderEvents("batched.myshopify.com");
    const reads: string[] = [];
    await runBatch(batched.ids, reads);
    // The order is read three times: for the e-mails (once, shared by the
    // sale's and the commissions' kinds through mailOrder), for Flow's
    // trigger and for the webhook payload. The commissions' kinds read it
    // apart from the sale's before.
    expect(reads.filter((call) => call.startsWith("order."))).toHaveLength(3);
    const got = await written(batched.shop.id);
    expect({ ...got, jobs: 0 }).toEqual({ ...expected, jobs: 0 });
    // The same number of follow-up jobs as the other shop's dispatch made.
    expect(got.jobs - jobsBefore).toBe(jobsBefore);
    expect(await aloneJobs()).toBe(0);

    // A replayed batch (a worker that died after the commit) adds nothing.
    await runBatch(batched.ids);
    expect(await written(batched.shop.id)).toEqual(got);
  });

  it("reads the orders and affiliates its e-mails name with one statement each, however many the batch holds", async () => {
    const db = getDb();
    const shop = await buildShop({ domain: "burst.myshopify.com" });
    const campaign = await buildCampaign(shop.id);
    const sales = [
      { name: "#2001", email: "kim@example.com" },
      { name: "#2002", email: "lee@example.com" },
      { name: "#2003", email: "max@example.com" },
    ];
    const ids: string[] = [];
    for (const sale of sales) {
      const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: sale.email });
      const order = await buildOrder(shop.id, { affiliateId: affiliate.id, total: 10_000, name: sale.name });
      const c = await buildCommission(shop.id, order.id, affiliate.id, { amount: 1_000 });
      const data = {
        commissionId: c.id,
        affiliateId: affiliate.id,
        orderId: order.id,
        kind: "sale",
        amount: 1_000,
        currency: "USD",
      };
      ids.push(await db.$transaction((tx) => emitEvent(tx, shop.id, "commission.created", data)));
    }
    const reads: string[] = [];
    await runBatch(ids, reads);
    // One read per order and one per affiliate before.
    expect(reads.filter((call) => call.startsWith("order."))).toEqual(["order.findMany"]);
    expect(reads.filter((call) => call.startsWith("affiliate."))).toEqual(["affiliate.findMany"]);
    const mails = await db.outboxEmail.findMany({ where: { shopId: shop.id, kind: "affiliate.commission" } });
    expect(sorted(mails.map((m) => `${m.toAddress} ${sales.find((s) => m.text.includes(s.name))?.name}`))).toEqual(
      sales.map((s) => `${s.email} ${s.name}`),
    );
  });

  it("runs an order's events through the worker without alone jobs, each dispatched once", async () => {
    const { shop, ids } = await orderEvents("worker.myshopify.com");
    await drainJobs();
    expect(await aloneJobs()).toBe(0);
    const dispatched = await getDb().job.findMany({ where: { type: "event.dispatch" }, select: { status: true } });
    expect(dispatched.map((j) => j.status)).toEqual(ids.map(() => "done"));
    const { deliveries, triggers } = await written(shop.id);
    expect(deliveries).toHaveLength(ids.length);
    expect(triggers).toHaveLength(3);
    // And what they queued was sent once: every event to the endpoint, and the Flow triggers.
    expect(receivers.current().received).toHaveLength(ids.length);
    expect(sim.store.shop("worker.myshopify.com").flowTriggers ?? []).toHaveLength(3);
  });
});

function sorted(list: string[]) {
  return [...list].sort();
}
