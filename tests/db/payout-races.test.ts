import { beforeEach, afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { runAutoPay } from "~/models/payouts/auto-pay.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { paymentSettingsSchema, withPaymentSettings } from "~/models/payouts/payment-settings";
import type { PayoutMethod } from "~/models/payouts/payout-states";
import { refreshPendingPayouts } from "~/models/payouts/refresh-pending-payouts.server";
import { followPaypalBatch, sendPaypalBatch } from "~/models/paypal/send-paypal-batch.server";
import { logInAs } from "../support/admin-client";
import { ApiClient, buildApiKey, buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useMoneyCheck } from "../support/money-check";
import { connectShopToFake, FAKE_WEBHOOK_ID, usePaypal } from "../support/paypal";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// Issue 25, finding 2: every pair of payout state changes that can meet,
// released together over real HTTP (the admin's screens, staff, the REST
// API, PayPal's webhook) and through the jobs' own functions (PayPal's status
// job, auto-pay), for several rounds each. On PostgreSQL (CI's second pass)
// the requests run on separate connections at the same moment; on SQLite
// the same requests interleave in one process. Each round: exactly one
// writer wins, every other one gets a 409 and changes nothing, the money
// checker passes (after every test), and each state change reaches e-mail
// and the outgoing webhook exactly once.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "0", PAYPAL_TIMEOUT_MS: "2000", WEBHOOKS_ALLOW_PRIVATE: "1" });
const paypal = usePaypal();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const ROUNDS = 6;
const DETAIL = "routes/$role.payouts.$id";
const LIST = "routes/$role.payouts._index";
const db = () => getDb();

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await new WebhookReceiver().start();
  (paypal.fake() as unknown as { options: { itemPath?: () => string[] } }).options.itemPath = undefined;
});
afterEach(async () => {
  await receiver.stop();
});

async function setUp() {
  const shop = await buildShop({ pricingPlan: "pro" });
  await connectShopToFake(shop.id);
  const campaign = await buildCampaign(shop.id);
  const adminEmail = `admin-${shop.id}@example.com`;
  const staffEmail = `staff-${shop.id}@example.com`;
  await buildUser(shop.id, { role: "admin", email: adminEmail });
  await buildUser(shop.id, { role: "staff", email: staffEmail, permissions: ["payouts"] });
  const admins = [await logInAs(server.url, "admin", adminEmail), await logInAs(server.url, "admin", adminEmail)];
  const staff = await logInAs(server.url, "staff", staffEmail);
  const { key } = await buildApiKey(shop.id);
  const api = new ApiClient(server.url, key);
  const hook = await api.post("/api/v1/webhook-endpoints", {
    url: receiver.url(),
    event_types: ["payout.paid", "payout.failed"],
  });
  expect(hook.status).toBe(201);
  let n = 0;
  /** A new affiliate with approved lines gathered into a pending payout. */
  const pending = async (amount = 2_000) => {
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    await db().affiliate.update({ where: { id: affiliate.id }, data: { paypalEmail: `aff${n}@example.com` } });
    const order = await buildOrder(shop.id, { affiliateId: affiliate.id });
    await buildCommission(shop.id, order.id, affiliate.id, { amount, status: "approved", sourceRef: `r${n++}` });
    await db().$transaction((tx) => refreshPendingPayouts(tx, shop.id, { affiliateIds: [affiliate.id] }));
    return db().payout.findFirstOrThrow({ where: { affiliateId: affiliate.id, status: "pending" } });
  };
  /** A pending payout put in a batch of `method` (processing). */
  const inBatch = async (method: PayoutMethod) => {
    const p = await pending();
    await db().$transaction((tx) => createPayoutBatch(tx, shop.id, { payoutIds: [p.id], method, createdBy: "t" }));
    return p;
  };
  return { shop, admins, staff, api, pending, inBatch };
}

type Attempt = () => Promise<Response>;

/** Releases the attempts together; the statuses, in order. */
async function race(attempts: Attempt[]) {
  const responses = await Promise.all(attempts.map((a) => a()));
  return Promise.all(
    responses.map(async (r) => {
      const text = await r.text();
      if (r.status >= 500) throw new Error(`${r.status}: ${text}`);
      return r.status;
    }),
  );
}

const won = (status: number) => status === 200 || status === 201 || status === 204;

/** Every state change reached e-mail and the webhook receiver exactly once. */
async function expectEachChangeOnce(shopId: string) {
  await drainJobs();
  const events = await db().domainEvent.findMany({
    where: { shopId, type: { in: ["payout.paid", "payout.failed"] } },
  });
  const perPayout = new Map<string, number>();
  for (const e of events) {
    const key = `${e.type}:${(JSON.parse(e.data) as { payoutId: string }).payoutId}`;
    perPayout.set(key, (perPayout.get(key) ?? 0) + 1);
  }
  expect([...perPayout.values()].every((n) => n === 1)).toBe(true);
  const paid = await db().payout.count({ where: { shopId, status: "paid" } });
  const failed = await db().payout.count({ where: { shopId, status: "failed" } });
  expect(events.filter((e) => e.type === "payout.paid")).toHaveLength(paid);
  expect(events.filter((e) => e.type === "payout.failed")).toHaveLength(failed);
  const mails = await db().outboxEmail.findMany({ where: { shopId } });
  expect(mails.filter((m) => m.kind === "affiliate.payout_sent")).toHaveLength(paid);
  expect(mails.filter((m) => m.kind === "affiliate.payout_failed")).toHaveLength(failed);
  const delivered = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { payout_id?: string } });
  expect(delivered.filter((d) => d.type === "payout.paid")).toHaveLength(paid);
  expect(delivered.filter((d) => d.type === "payout.failed")).toHaveLength(failed);
  expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(receiver.received.length);
}

describe("payout state changes released together", () => {
  it("paid / paid: four people mark one payout paid, one wins", async () => {
    const s = await setUp();
    for (let round = 0; round < ROUNDS; round++) {
      const p = await s.inBatch("manual");
      const statuses = await race([
        () => s.admins[0]!.act(`/admin/payouts/${p.id}`, DETAIL, { intent: "mark-paid", reference: `A${round}` }),
        () => s.admins[1]!.act(`/admin/payouts/${p.id}`, DETAIL, { intent: "mark-paid", reference: `B${round}` }),
        () => s.staff.act(`/staff/payouts/${p.id}`, DETAIL, { intent: "mark-paid", reference: `C${round}` }),
        () => s.api.post(`/api/v1/payouts/${p.id}/mark-paid`, { reference: `D${round}` }),
      ]);
      expect(statuses.filter(won), String(statuses)).toHaveLength(1);
      expect(
        statuses.filter((x) => !won(x)).every((x) => x === 409),
        String(statuses),
      ).toBe(true);
      expect(await db().payoutEvent.count({ where: { payoutId: p.id, status: "paid" } })).toBe(1);
    }
    await expectEachChangeOnce(s.shop.id);
  });

  it("paid / failed / cancel: one outcome per payout, and its lines follow it", async () => {
    const s = await setUp();
    for (let round = 0; round < ROUNDS; round++) {
      const p = await s.inBatch(round % 2 ? "csv" : "manual");
      const statuses = await race([
        () => s.admins[0]!.act(`/admin/payouts/${p.id}`, DETAIL, { intent: "mark-paid", reference: `W${round}` }),
        () => s.staff.act(`/staff/payouts/${p.id}`, DETAIL, { intent: "mark-failed", reason: "Bank refused" }),
        () => s.admins[1]!.act(`/admin/payouts/${p.id}`, DETAIL, { intent: "cancel" }),
        () => s.api.post(`/api/v1/payouts/${p.id}/mark-paid`, { reference: `X${round}` }),
      ]);
      expect(statuses.filter(won), String(statuses)).toHaveLength(1);
      const after = await db().payout.findUniqueOrThrow({ where: { id: p.id } });
      const lines = await db().commission.findMany({ where: { affiliateId: p.affiliateId } });
      if (after.status === "paid") expect(lines.every((l) => l.status === "paid" && l.payoutId === p.id)).toBe(true);
      else {
        expect(["failed", "cancelled"]).toContain(after.status);
        expect(lines.every((l) => l.status === "approved" && l.payoutId === null)).toBe(true);
      }
      expect(await db().payoutEvent.count({ where: { payoutId: p.id, status: { not: "processing" } } })).toBe(2);
    }
    await expectEachChangeOnce(s.shop.id);
  });

  it("pay / pay: the same pending payouts sent twice at once go into one batch", async () => {
    const s = await setUp();
    for (let round = 0; round < ROUNDS; round++) {
      const a = await s.pending();
      const b = await s.pending();
      const ids = [a.id, b.id];
      const statuses = await race([
        () => s.admins[0]!.act("/admin/payouts", LIST, { intent: "pay", ids, method: "manual" }),
        () => s.admins[1]!.act("/admin/payouts", LIST, { intent: "pay", ids, method: "csv" }),
        () => s.admins[0]!.act("/admin/payouts", LIST, { intent: "pay", ids: [b.id], method: "paypal" }),
        () => s.api.post("/api/v1/payouts", { affiliate_ids: [a.affiliateId, b.affiliateId], method: "manual" }),
      ]);
      for (const p of [a, b]) {
        const after = await db().payout.findUniqueOrThrow({ where: { id: p.id } });
        expect(after.status, String(statuses)).toBe("processing");
        expect(after.batchId).not.toBeNull();
        expect(await db().payoutEvent.count({ where: { payoutId: p.id, status: "processing" } })).toBe(1);
      }
      // Every batch made holds what it says; the losers made none.
      const batches = await db().payoutBatch.findMany({ where: { payouts: { some: { id: { in: ids } } } } });
      for (const batch of batches) {
        expect(await db().payout.count({ where: { batchId: batch.id } })).toBe(batch.itemCount);
      }
      expect(await db().payoutBatch.count({ where: { shopId: s.shop.id, itemCount: 0 } })).toBe(0);
      expect(
        statuses.every((x) => won(x) || x === 409),
        String(statuses),
      ).toBe(true);
    }
    // The PayPal batches that won are sent and followed to their end.
    paypalPaysAtOnce();
    await drainJobs();
    for (const batch of await db().payoutBatch.findMany({ where: { shopId: s.shop.id, method: "paypal" } })) {
      await followPaypalBatch(db(), { batchId: batch.id, round: 0 });
    }
    await expectEachChangeOnce(s.shop.id);
    expect(paypal.fake().violations).toEqual([]);
  });

  it("PayPal's webhook, its status job and a person, at once: PayPal's answer settles the payout once", async () => {
    const s = await setUp();
    paypalPaysAtOnce();
    for (let round = 0; round < ROUNDS; round++) {
      const p = await s.inBatch("paypal");
      const row = await db().payout.findUniqueOrThrow({ where: { id: p.id }, include: { batch: true } });
      await sendPaypalBatch(db(), { id: row.batchId!, shopId: s.shop.id, method: "paypal" }, { retryDelayMs: 0 });
      const made = [...paypal.fake().batches.values()].find((b) => b.senderBatchId === row.batchId)!;
      const hook = paypal.fake().webhookFor(made.items[0]!, made, FAKE_WEBHOOK_ID, "SUCCESS");
      const statuses = await race([
        () =>
          fetch(server.url(`/webhooks/paypal/${s.shop.id}`), {
            method: "POST",
            headers: hook.headers,
            body: hook.body,
          }),
        () =>
          fetch(server.url(`/webhooks/paypal/${s.shop.id}`), {
            method: "POST",
            headers: hook.headers,
            body: hook.body,
          }),
        () =>
          followPaypalBatch(db(), { batchId: row.batchId!, round: 0 }).then(
            () => new Response(null, { status: 204 }),
            (error: Error) => new Response(error.message, { status: 409 }),
          ),
        () => s.staff.act(`/staff/payouts/${p.id}`, DETAIL, { intent: "mark-failed", reason: "slow" }),
        () => s.admins[0]!.act(`/admin/payouts/${p.id}`, DETAIL, { intent: "mark-paid", reference: "hand" }),
      ]);
      // The people are refused (PayPal holds it), whatever the order.
      expect(statuses.slice(3), String(statuses)).toEqual([409, 409]);
      expect((await db().payout.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("paid");
      expect(await db().payoutEvent.count({ where: { payoutId: p.id, status: "paid" } })).toBe(1);
    }
    await expectEachChangeOnce(s.shop.id);
    expect(paypal.fake().batchCount()).toBe(ROUNDS);
  });

  it("auto-pay / a person's Pay: each payout goes into exactly one batch", async () => {
    const s = await setUp();
    for (let round = 0; round < ROUNDS; round++) {
      const a = await s.pending();
      const b = await s.pending();
      const runAt = new Date().toISOString();
      const shop = await db().shop.findUniqueOrThrow({ where: { id: s.shop.id } });
      await db().shop.update({
        where: { id: s.shop.id },
        data: {
          settings: withPaymentSettings(
            shop.settings,
            paymentSettingsSchema.parse({
              defaultMethod: "csv",
              autoPay: { mode: "every", days: 7 },
              nextRunAt: runAt,
            }),
          ),
        },
      });
      const statuses = await race([
        () =>
          db()
            .$transaction((tx) => runAutoPay(tx, { shopId: s.shop.id, runAt }))
            .then(() => new Response(null, { status: 204 })),
        () => s.admins[0]!.act("/admin/payouts", LIST, { intent: "pay", ids: [a.id], method: "manual" }),
        () => s.admins[1]!.act("/admin/payouts", LIST, { intent: "pay", ids: [b.id], method: "manual" }),
      ]);
      expect(statuses[0]).toBe(204);
      for (const p of [a, b]) {
        const after = await db().payout.findUniqueOrThrow({ where: { id: p.id } });
        expect(after.status, String(statuses)).toBe("processing");
        expect(await db().payoutEvent.count({ where: { payoutId: p.id, status: "processing" } })).toBe(1);
      }
      expect(await db().payoutBatch.count({ where: { shopId: s.shop.id, itemCount: 0 } })).toBe(0);
    }
    await expectEachChangeOnce(s.shop.id);
  });
});

/** PayPal answers SUCCESS for every item at the first read (the status job and webhooks then agree). */
function paypalPaysAtOnce() {
  (paypal.fake() as unknown as { options: { itemPath?: () => string[] } }).options.itemPath = () => ["SUCCESS"];
}
