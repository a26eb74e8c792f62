import { describe, expect, it } from "vitest";
import { getConfig, resetConfigForTests } from "~/config.server";
import { getDb } from "~/db.server";
import { PAYPAL_MAX_ITEMS_PER_REQUEST } from "~/models/paypal/paypal-limits";
import { sendJobKey, sendPaypalBatchAgain, stuckPaypalBatch } from "~/models/paypal/send-batch-again.server";
import { AppError } from "~/lib/errors";
import { drainJobs } from "~/worker/job-registry.server";
import { connectShopToFake, paypalBatchFor, usePaypal } from "../support/paypal";
import { buildShop } from "../support/builders";
import { registerPaypalWebhook } from "~/models/paypal/register-paypal-webhook.server";
import { paypalWebhookUrl } from "~/models/paypal/paypal-connection.server";
import { useMoneyCheck } from "../support/money-check";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// Issue 30, item 4, against the stateful PayPal fake behind Prism on PayPal's
// own file: a batch larger than PayPal takes (15,000 items; 2 here) goes as
// several, each its own sender_batch_id, from one Pay; and a batch whose job
// gave up while PayPal's answer was lost is sent again with the same ids:
// PayPal answers "duplicate", the first batch is read back, nothing is paid twice.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "0", PAYPAL_BATCH_MAX_ITEMS: "2" });
const paypal = usePaypal();
useTestDatabase();
useMoneyCheck();

describe("PayPal batches of any size", () => {
  it("takes at most 15,000 items per request in production (2 in this file)", () => {
    expect(PAYPAL_MAX_ITEMS_PER_REQUEST).toBe(15_000);
    expect(getConfig().PAYPAL_BATCH_MAX_ITEMS).toBe(2);
    const saved = process.env.PAYPAL_BATCH_MAX_ITEMS;
    try {
      delete process.env.PAYPAL_BATCH_MAX_ITEMS;
      resetConfigForTests();
      expect(getConfig().PAYPAL_BATCH_MAX_ITEMS).toBe(15_000);
      process.env.PAYPAL_BATCH_MAX_ITEMS = "15001";
      resetConfigForTests();
      expect(() => getConfig()).toThrow();
    } finally {
      process.env.PAYPAL_BATCH_MAX_ITEMS = saved;
      resetConfigForTests();
    }
  });

  it("splits one Pay of five payouts into three batches, each its own sender_batch_id, all paid once", async () => {
    const fake = paypal.fake();
    const db = getDb();
    const batch = await paypalBatchFor([
      "a@example.com",
      "b@example.com",
      "c@example.com",
      "d@example.com",
      "e@example.com",
    ]);
    const batches = await db.payoutBatch.findMany({ where: { shopId: batch.shop.id }, orderBy: { createdAt: "asc" } });
    expect(batches).toHaveLength(3);
    expect(batches[0]!.id).toBe(batch.batchId);
    expect(batches.map((b) => b.itemCount).sort()).toEqual([1, 2, 2]);
    expect(batches.every((b) => b.method === "paypal" && b.status === "created")).toBe(true);
    for (const b of batches) {
      expect(JSON.parse(b.totals)).toEqual([{ currency: "USD", amount: 2_500 * b.itemCount }]);
      expect(await db.job.count({ where: { uniqueKey: sendJobKey(b.id) } })).toBe(1);
    }

    await drainJobs();
    expect(fake.posts.map((p) => p.senderBatchId).sort()).toEqual(batches.map((b) => b.id).sort());
    expect(fake.batchCount()).toBe(3);
    expect(Math.max(...[...fake.batches.values()].map((b) => b.items.length))).toBe(2);
    expect(await db.payout.count({ where: { shopId: batch.shop.id, status: "paid" } })).toBe(5);
    expect(await db.domainEvent.count({ where: { shopId: batch.shop.id, type: "payout.paid" } })).toBe(5);
    expect(fake.violations).toEqual([]);
  });

  it("a batch stuck in sending after its job's retries is sent again with the same ids: PayPal makes one batch", async () => {
    const fake = paypal.fake();
    const db = getDb();
    const batch = await paypalBatchFor(["ana@example.com", "ben@example.com"]);
    // PayPal makes the batch but the answer is lost, then PayPal is down for the rest of the job's tries.
    fake.postFaults.push("made-then-500", "500", "500");
    await db.job.updateMany({ where: { uniqueKey: sendJobKey(batch.batchId) }, data: { maxAttempts: 1 } });
    await drainJobs();
    expect(await db.job.findUniqueOrThrow({ where: { uniqueKey: sendJobKey(batch.batchId) } })).toMatchObject({
      status: "failed",
    });
    const stuck = await db.$transaction((tx) => stuckPaypalBatch(tx, batch.shop.id, batch.batchId));
    expect(stuck).toMatchObject({ batchId: batch.batchId, lastError: expect.stringMatching(/500/) });
    expect(await db.payout.count({ where: { batchId: batch.batchId, status: "processing" } })).toBe(2);

    await db.$transaction((tx) => sendPaypalBatchAgain(tx, batch.shop.id, batch.batchId, "user-1"));
    // A second click (or another shop's) changes nothing: 409.
    await expect(
      db.$transaction((tx) => sendPaypalBatchAgain(tx, batch.shop.id, batch.batchId, "user-1")),
    ).rejects.toMatchObject({ code: "conflict" } satisfies Partial<AppError>);
    await expect(
      db.$transaction((tx) => sendPaypalBatchAgain(tx, "another-shop", batch.batchId, "user-1")),
    ).rejects.toMatchObject({ code: "conflict" });

    await drainJobs();
    expect(new Set(fake.posts.map((p) => p.senderBatchId))).toEqual(new Set([batch.batchId]));
    expect(fake.posts.length).toBe(4);
    expect(fake.batchCount()).toBe(1);
    const [made] = [...fake.batches.values()];
    expect(await db.payoutBatch.findUniqueOrThrow({ where: { id: batch.batchId } })).toMatchObject({
      paypalBatchId: made!.payoutBatchId,
      status: "done",
    });
    expect(await db.payout.count({ where: { batchId: batch.batchId, status: "paid" } })).toBe(2);
    expect(await db.domainEvent.count({ where: { shopId: batch.shop.id, type: "payout.paid" } })).toBe(2);
    expect(await db.payoutEvent.count({ where: { shopId: batch.shop.id, actor: "user-1" } })).toBe(2);
    expect(fake.violations).toEqual([]);
  });
});

describe("registering the PayPal webhook for the merchant", () => {
  it("subscribes the shop's URL to the payout item events and stores the id; again: the same webhook", async () => {
    const fake = paypal.fake();
    const db = getDb();
    const shop = await buildShop();
    await connectShopToFake(shop.id, null);
    const { webhookId } = await registerPaypalWebhook(db, shop.id);
    const [made] = [...fake.webhooks.values()];
    expect(fake.webhooks.size).toBe(1);
    expect(made).toMatchObject({ id: webhookId, url: paypalWebhookUrl(shop.id) });
    expect(made!.event_types.map((e) => e.name)).toContain("PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    expect((await db.paypalConnection.findUniqueOrThrow({ where: { shopId: shop.id } })).webhookId).toBe(webhookId);

    // PayPal refuses the same URL twice (WEBHOOK_URL_ALREADY_EXISTS): the existing one is found and kept.
    await db.paypalConnection.updateMany({ where: { shopId: shop.id }, data: { webhookId: null } });
    expect(await registerPaypalWebhook(db, shop.id)).toEqual({ webhookId });
    expect(fake.webhooks.size).toBe(1);
    expect((await db.paypalConnection.findUniqueOrThrow({ where: { shopId: shop.id } })).webhookId).toBe(webhookId);
  });

  it("refuses a shop that has not connected PayPal (409), changing nothing", async () => {
    const shop = await buildShop();
    await expect(registerPaypalWebhook(getDb(), shop.id)).rejects.toMatchObject({ code: "conflict" });
    expect(paypal.fake().webhooks.size).toBe(0);
  });
});
