import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { openSecret } from "~/lib/secret-box.server";
import { sendPaypalBatch } from "~/models/paypal/send-paypal-batch.server";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildShop } from "../support/builders";
import { FAKE_CLIENT_ID, FAKE_SECRET, FAKE_WEBHOOK_ID, paypalBatchFor, usePaypal } from "../support/paypal";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useMoneyCheck } from "../support/money-check";

// PayPal Payouts end to end against the fake PayPal, with Prism checking every
// Payouts request against PayPal's own OpenAPI file: connecting, sending a
// batch exactly once, following it to final states, and verified webhooks.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "0", PAYPAL_TIMEOUT_MS: "700" });
const paypal = usePaypal();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const db = () => getDb();
const batchRow = (id: string) => db().payoutBatch.findUniqueOrThrow({ where: { id } });
const ref = (batch: { batchId: string; shop: { id: string } }) => ({
  id: batch.batchId,
  shopId: batch.shop.id,
  method: "paypal" as const,
});

describe("PUT/GET /api/v1/paypal/connection", () => {
  it("stores credentials only once PayPal accepted them, encrypted, and never returns the secret", async () => {
    const shop = await buildShop();
    const { key } = await buildApiKey(shop.id);
    const api = new ApiClient(server.url, key);

    const refused = await api.request("/api/v1/paypal/connection", {
      method: "PUT",
      body: JSON.stringify({ client_id: FAKE_CLIENT_ID, client_secret: "wrong-secret", mode: "sandbox" }),
      headers: { "content-type": "application/json" },
    });
    expect(refused.status).toBe(422);
    expect(await db().paypalConnection.count()).toBe(0);

    const bad = await api.request("/api/v1/paypal/connection", {
      method: "PUT",
      body: JSON.stringify({ client_id: "", client_secret: FAKE_SECRET, mode: "test" }),
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).error.fields).sort()).toEqual(["client_id", "mode"]);

    const ok = await api.request("/api/v1/paypal/connection", {
      method: "PUT",
      body: JSON.stringify({
        client_id: FAKE_CLIENT_ID,
        client_secret: FAKE_SECRET,
        mode: "sandbox",
        webhook_id: FAKE_WEBHOOK_ID,
      }),
      headers: { "content-type": "application/json" },
    });
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text).not.toContain(FAKE_SECRET);
    expect(JSON.parse(text)).toMatchObject({
      connected: true,
      mode: "sandbox",
      client_id: FAKE_CLIENT_ID,
      app_id: expect.stringMatching(/^APP-/),
      payouts_scope: true,
      webhook_id: FAKE_WEBHOOK_ID,
    });

    const row = await db().paypalConnection.findUniqueOrThrow({ where: { shopId: shop.id } });
    expect(row.secretEncrypted).not.toContain(FAKE_SECRET);
    expect(openSecret(row.secretEncrypted, shop.id)).toBe(FAKE_SECRET);

    const got = await api.get("/api/v1/paypal/connection");
    const body = await got.text();
    expect(got.status).toBe(200);
    expect(body).not.toContain(FAKE_SECRET);
    expect(body).not.toContain(row.secretEncrypted);
    expect(JSON.parse(body).connected).toBe(true);

    const doc = await (await api.get("/api/v1/openapi.json")).json();
    expect(Object.keys(doc.paths["/api/v1/paypal/connection"]).sort()).toEqual(["get", "put"]);
  });
});

describe("sending a batch", () => {
  it("sends one request per batch, checked by Prism, and follows every item to its final state", async () => {
    const fake = paypal.fake();
    const batch = await paypalBatchFor(["ana@example.com", "returned-ben@example.com", null]);
    const [ana, ben, cy] = batch.affiliates;

    await drainJobs();

    expect(fake.violations).toEqual([]);
    expect(fake.posts).toHaveLength(1);
    expect(fake.posts[0]).toMatchObject({
      senderBatchId: batch.batchId,
      requestId: batch.batchId,
      itemCount: 2,
      subject: `${batch.shop.name}: your affiliate commissions`,
    });
    const [sent] = [...fake.batches.values()];
    expect(sent!.items.map((i) => i.sender_item_id).sort()).toEqual(
      [(await batch.payoutOf(ana!.id)).id, (await batch.payoutOf(ben!.id)).id].sort(),
    );
    expect(sent!.items.every((i) => i.amount.currency === "USD" && i.amount.value === "25.00")).toBe(true);

    const paid = await batch.payoutOf(ana!.id);
    expect(paid).toMatchObject({
      status: "paid",
      paypalItemStatus: "SUCCESS",
      reference: expect.stringMatching(/^TX/),
    });
    expect(await db().commission.findFirst({ where: { affiliateId: ana!.id } })).toMatchObject({
      status: "paid",
      payoutId: paid.id,
    });

    // RETURNED: the money went back to the merchant, the line is payable again, and the merchant reads why.
    const returned = await batch.payoutOf(ben!.id);
    expect(returned.status).toBe("failed");
    expect(returned.failureReason).toContain("Payouts:paypal.failure.RETURNED");
    expect(returned.failureReason).toContain("RECEIVER_UNCLAIMED");
    // Back in the balance, which the payouts.refresh job (queued by payout.failed) gathers into a new pending payout.
    const line = await db().commission.findFirstOrThrow({ where: { affiliateId: ben!.id }, include: { payout: true } });
    expect(line.payoutId).not.toBe(returned.id);
    expect(line.payout?.status ?? "in the balance").toMatch(/^(in the balance|pending)$/);
    const history = await db().payoutEvent.findMany({
      where: { payoutId: returned.id },
      orderBy: { createdAt: "asc" },
    });
    expect(history.map((h) => h.message)).toEqual(
      expect.arrayContaining([
        `Payouts:paypal.history.sent{"batch":"${sent!.payoutBatchId}"}`,
        'Payouts:paypal.history.status{"status":"UNCLAIMED"}',
      ]),
    );

    // No PayPal e-mail: failed before anything was sent, with a reason to act on.
    expect(await batch.payoutOf(cy!.id)).toMatchObject({
      status: "failed",
      failureReason: "Payouts:paypal.failure.noEmail",
    });

    const stored = await batchRow(batch.batchId);
    expect(stored).toMatchObject({ paypalBatchId: sent!.payoutBatchId, status: "done", paypalBatchStatus: "SUCCESS" });
    expect(stored.completedAt).not.toBeNull();
    expect(fake.violations).toEqual([]);
  });

  it("retried five times (500, timeout, lost answer, duplicate, already stored): PayPal gets one sender_batch_id and makes one batch", async () => {
    const fake = paypal.fake();
    const batch = await paypalBatchFor(["ana@example.com", "ben@example.com"]);
    fake.postFaults.push("500", "hang", "made-then-500");
    const outcomes: string[] = [];
    for (let run = 0; run < 5; run++) {
      try {
        await sendPaypalBatch(db(), ref(batch), { attempts: 1, retryDelayMs: 0 });
        outcomes.push("stored");
      } catch (error) {
        outcomes.push((error as Error).message.includes("timed out") ? "timeout" : "retry");
      }
    }
    expect(outcomes).toEqual(["retry", "timeout", "retry", "stored", "stored"]);
    // Four requests reached PayPal (the fifth run found the answer stored): all with the same ids.
    expect(fake.posts).toHaveLength(4);
    expect(new Set(fake.posts.map((p) => p.senderBatchId))).toEqual(new Set([batch.batchId]));
    expect(new Set(fake.posts.map((p) => p.requestId))).toEqual(new Set([batch.batchId]));
    expect(fake.batchCount()).toBe(1);
    const [made] = [...fake.batches.values()];
    expect((await batchRow(batch.batchId)).paypalBatchId).toBe(made!.payoutBatchId);
    expect(fake.violations).toEqual([]);
  });

  it("a batch PayPal refuses fails its payouts with PayPal's words and releases their lines", async () => {
    const fake = paypal.fake();
    const batch = await paypalBatchFor(["ana@example.com"]);
    // An item PayPal's file does not allow (a receiver longer than 127 characters): Prism refuses it.
    await db().affiliate.update({
      where: { id: batch.affiliates[0]!.id },
      data: { paypalEmail: `${"a".repeat(130)}@example.com` },
    });
    await sendPaypalBatch(db(), ref(batch), { retryDelayMs: 0 });
    expect(fake.violations).toHaveLength(1);
    expect(fake.batchCount()).toBe(0);
    const payout = await batch.payoutOf(batch.affiliates[0]!.id);
    expect(payout.status).toBe("failed");
    expect(payout.failureReason).toContain("Payouts:paypal.failure.refused");
    expect(await db().commission.count({ where: { payoutId: null, affiliateId: batch.affiliates[0]!.id } })).toBe(1);
    expect((await batchRow(batch.batchId)).status).toBe("failed");
  });
});

describe("PayPal webhooks", () => {
  it("applies a verified PAYMENT.PAYOUTS-ITEM event and refuses a forged one", async () => {
    const fake = paypal.fake();
    const batch = await paypalBatchFor(["unclaimed-ana@example.com"]);
    await sendPaypalBatch(db(), ref(batch), { retryDelayMs: 0 });
    const [made] = [...fake.batches.values()];
    const item = made!.items[0]!;
    const url = server.url(`/webhooks/paypal/${batch.shop.id}`);

    const forged = fake.webhookFor(item, made!, FAKE_WEBHOOK_ID, "SUCCESS");
    const tampered = forged.body.replace('"SUCCESS"', '"FAILED"');
    const refused = await fetch(url, { method: "POST", headers: forged.headers, body: tampered });
    expect(refused.status).toBe(401);
    const unsigned = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: forged.body,
    });
    expect(unsigned.status).toBe(401);
    expect((await batch.payoutOf(batch.affiliates[0]!.id)).status).toBe("processing");

    const held = fake.webhookFor(item, made!, FAKE_WEBHOOK_ID, "UNCLAIMED");
    expect((await fetch(url, { method: "POST", headers: held.headers, body: held.body })).status).toBe(200);
    expect(await batch.payoutOf(batch.affiliates[0]!.id)).toMatchObject({
      status: "processing",
      paypalItemStatus: "UNCLAIMED",
      paypalItemId: item.payout_item_id,
    });

    const success = fake.webhookFor(item, made!, FAKE_WEBHOOK_ID, "SUCCESS");
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, { method: "POST", headers: success.headers, body: success.body });
      expect(res.status).toBe(200);
    }
    const payout = await batch.payoutOf(batch.affiliates[0]!.id);
    expect(payout).toMatchObject({ status: "paid", reference: item.transaction_id });
    // The repeat changed nothing: one "paid" line in the history, one payout.paid event.
    expect(await db().payoutEvent.count({ where: { payoutId: payout.id, status: "paid" } })).toBe(1);
    expect(await db().domainEvent.count({ where: { shopId: batch.shop.id, type: "payout.paid" } })).toBe(1);
    expect(fake.webhookChecks.map((c) => c.verified)).toEqual([false, true, true, true]);
  });

  it("answers 404 for a shop without a PayPal webhook id", async () => {
    const shop = await buildShop();
    const res = await fetch(server.url(`/webhooks/paypal/${shop.id}`), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(404);
  });
});
