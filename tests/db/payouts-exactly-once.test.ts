import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { runAutoPay } from "~/models/payouts/auto-pay.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { withPaymentSettings, paymentSettingsSchema } from "~/models/payouts/payment-settings";
import { payPayouts } from "~/models/payouts/payout-admin.server";
import { refreshPendingPayouts } from "~/models/payouts/refresh-pending-payouts.server";
import { markPayoutPaid } from "~/models/payouts/settle-payout.server";
import { sendPaypalBatch } from "~/models/paypal/send-paypal-batch.server";
import { logInAs } from "../support/admin-client";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useMoneyCheck } from "../support/money-check";
import { connectShopToFake, FAKE_WEBHOOK_ID, paypalBatchFor, usePaypal } from "../support/paypal";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Issue 25: money moves exactly once. Each finding of the review has its test
// here, failing on the code before the fix: a payout PayPal holds marked
// failed and paid again (finding 1), a late SUCCESS that was only written
// down, and a shop without PayPal in its plan paying by PayPal (finding 3).
// The races of finding 2 are in payout-races.test.ts. The money checker runs
// after every test.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "0", PAYPAL_TIMEOUT_MS: "700" });
const paypal = usePaypal();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const db = () => getDb();
const DETAIL = "routes/$role.payouts.$id";

async function staffWithPayouts(shopId: string) {
  const email = `staff-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "staff", email, permissions: ["payouts"] });
  return logInAs(server.url, "staff", email);
}

async function admin(shopId: string) {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "admin", email });
  return logInAs(server.url, "admin", email);
}

/** A sent PayPal batch of one payout (PayPal holds the item, still PENDING). */
async function sentToPaypal(receiver = "ana@example.com") {
  const batch = await paypalBatchFor([receiver]);
  await sendPaypalBatch(db(), { id: batch.batchId, shopId: batch.shop.id, method: "paypal" }, { retryDelayMs: 0 });
  const payout = await batch.payoutOf(batch.affiliates[0]!.id);
  expect(payout.status).toBe("processing");
  const [made] = [...paypal.fake().batches.values()];
  return { ...batch, payout, made: made!, item: made!.items[0]! };
}

async function deliverPaypalWebhook(shopId: string, body: { headers: Record<string, string>; body: string }) {
  const res = await fetch(server.url(`/webhooks/paypal/${shopId}`), {
    method: "POST",
    headers: body.headers,
    body: body.body,
  });
  expect(res.status).toBe(200);
}

describe("finding 1: a payout PayPal holds is not failed, cancelled, paid or retried by hand", () => {
  it("refuses staff and admin alike with a clear 409, and PayPal's answer settles it once", async () => {
    const sent = await sentToPaypal();
    const staff = await staffWithPayouts(sent.shop.id);
    const boss = await admin(sent.shop.id);
    const path = `/staff/payouts/${sent.payout.id}`;
    for (const [client, base] of [
      [staff, path],
      [boss, `/admin/payouts/${sent.payout.id}`],
    ] as const) {
      for (const body of [
        { intent: "mark-failed", reason: "PayPal is slow" },
        { intent: "cancel" },
        { intent: "mark-paid", reference: "by hand" },
        { intent: "retry" },
      ]) {
        const res = await client.act(base, DETAIL, body);
        expect(res.status, `${body.intent}: ${await res.clone().text()}`).toBe(409);
        const error = (await res.json()).error;
        expect(error.messageKey.key).toMatch(/^Payouts:errors\.(heldBySender|transition)$/);
      }
    }
    const unchanged = await db().payout.findUniqueOrThrow({ where: { id: sent.payout.id } });
    expect([unchanged.status, unchanged.failureReason]).toEqual(["processing", null]);
    expect(await db().payout.count({ where: { shopId: sent.shop.id } })).toBe(1);

    // The screen offers none of it and says why.
    const page = await (await staff.load(path, DETAIL)).json();
    expect(page.payout.actions).toEqual({
      markPaid: false,
      markFailed: false,
      cancel: false,
      retry: false,
      heldBy: "paypal",
    });

    // PayPal's answer settles it: one item, paid once.
    await deliverPaypalWebhook(
      sent.shop.id,
      paypal.fake().webhookFor(sent.item, sent.made, FAKE_WEBHOOK_ID, "SUCCESS"),
    );
    expect((await db().payout.findUniqueOrThrow({ where: { id: sent.payout.id } })).status).toBe("paid");
    expect(await db().domainEvent.count({ where: { shopId: sent.shop.id, type: "payout.paid" } })).toBe(1);
    expect(paypal.fake().batchCount()).toBe(1);
  });
});

describe("PayPal pays an item the app counted failed", () => {
  it("puts the payout back to paid with its lines and tells the merchant", async () => {
    const sent = await sentToPaypal();
    const fake = paypal.fake();
    await deliverPaypalWebhook(sent.shop.id, fake.webhookFor(sent.item, sent.made, FAKE_WEBHOOK_ID, "FAILED"));
    const failed = await db().payout.findUniqueOrThrow({ where: { id: sent.payout.id } });
    expect(failed.status).toBe("failed");
    const affiliateId = sent.affiliates[0]!.id;
    expect(await db().commission.count({ where: { affiliateId, payoutId: null, status: "approved" } })).toBe(1);
    expect(await db().payoutRelease.count({ where: { payoutId: failed.id } })).toBe(1);

    await deliverPaypalWebhook(sent.shop.id, fake.webhookFor(sent.item, sent.made, FAKE_WEBHOOK_ID, "SUCCESS"));
    const paid = await db().payout.findUniqueOrThrow({ where: { id: sent.payout.id } });
    expect(paid).toMatchObject({ status: "paid", reference: sent.item.transaction_id, paypalItemStatus: "SUCCESS" });
    expect(paid.reconciledAt).not.toBeNull();
    expect(
      await db().commission.findMany({ where: { affiliateId }, select: { status: true, payoutId: true } }),
    ).toEqual([{ status: "paid", payoutId: paid.id }]);
    const events = await db().domainEvent.findMany({ where: { shopId: sent.shop.id, type: "payout.paid" } });
    expect(events.map((e) => JSON.parse(e.data))).toEqual([
      expect.objectContaining({ payoutId: paid.id, previousStatus: "failed", overpaid: 0 }),
    ]);
    // The same SUCCESS again changes nothing.
    await deliverPaypalWebhook(sent.shop.id, fake.webhookFor(sent.item, sent.made, FAKE_WEBHOOK_ID, "SUCCESS"));
    expect(await db().domainEvent.count({ where: { shopId: sent.shop.id, type: "payout.paid" } })).toBe(1);

    await drainJobs();
    const mails = await db().outboxEmail.findMany({ where: { shopId: sent.shop.id } });
    expect(mails.map((m) => m.kind).sort()).toEqual(
      expect.arrayContaining(["affiliate.payout_sent", "merchant.payout_reconciled"]),
    );
    expect(mails.filter((m) => m.kind === "merchant.payout_reconciled")).toHaveLength(1);

    const page = await (await (await admin(sent.shop.id)).load(`/admin/payouts/${paid.id}`, DETAIL)).json();
    expect(page.payout).toMatchObject({ status: "paid", overpaid: 0, reconciledAt: expect.any(String) });
  });

  it("after a payout marked failed by hand was retried and paid: pays it, and takes back what was paid twice", async () => {
    // The review's state, made the way the old code let a person make it.
    const sent = await sentToPaypal();
    const affiliateId = sent.affiliates[0]!.id;
    await db().$transaction(async (tx) => {
      await tx.payout.update({ where: { id: sent.payout.id }, data: { status: "failed", failureReason: "by hand" } });
      await tx.commission.updateMany({ where: { payoutId: sent.payout.id }, data: { payoutId: null } });
    });
    await db().$transaction((tx) => refreshPendingPayouts(tx, sent.shop.id));
    const retry = await db().payout.findFirstOrThrow({ where: { shopId: sent.shop.id, status: "pending" } });
    await db().$transaction((tx) =>
      markPayoutPaid(tx, sent.shop.id, retry.id, { reference: "WIRE-2", actor: "u", by: "merchant" }),
    );

    await deliverPaypalWebhook(
      sent.shop.id,
      paypal.fake().webhookFor(sent.item, sent.made, FAKE_WEBHOOK_ID, "SUCCESS"),
    );
    const reconciled = await db().payout.findUniqueOrThrow({ where: { id: sent.payout.id } });
    expect(reconciled.status).toBe("paid");
    const lines = await db().commission.findMany({
      where: { affiliateId },
      orderBy: [{ amount: "desc" }, { kind: "asc" }],
      select: { kind: true, amount: true, status: true, payoutId: true },
    });
    expect(lines).toEqual([
      { kind: "overpayment", amount: 2500, status: "paid", payoutId: reconciled.id },
      { kind: "sale", amount: 2500, status: "paid", payoutId: retry.id },
      { kind: "overpayment", amount: -2500, status: "approved", payoutId: null },
    ]);
    const [event] = await db().domainEvent.findMany({
      where: { shopId: sent.shop.id, type: "payout.paid", data: { contains: reconciled.id } },
    });
    expect(JSON.parse(event!.data)).toMatchObject({ previousStatus: "failed", overpaid: 2500 });
  });
});

describe("finding 3: a shop whose plan lacks PayPal payouts cannot pay by PayPal", () => {
  async function connectedShop(plan: string) {
    const shop = await buildShop({ pricingPlan: plan });
    await connectShopToFake(shop.id);
    const campaign = await buildCampaign(shop.id);
    const ana = await buildAffiliate(shop.id, campaign.id);
    await db().affiliate.update({ where: { id: ana.id }, data: { paypalEmail: "ana@example.com" } });
    const order = await buildOrder(shop.id, { affiliateId: ana.id });
    await buildCommission(shop.id, order.id, ana.id, { amount: 4000, status: "approved" });
    await db().$transaction((tx) => refreshPendingPayouts(tx, shop.id));
    const pending = await db().payout.findFirstOrThrow({ where: { shopId: shop.id, status: "pending" } });
    return { shop, ana, pending };
  }

  it("refuses the Pay dialog and the REST API with a 422 that names the plan", async () => {
    const { shop, pending } = await connectedShop("free");
    const res = await (
      await admin(shop.id)
    ).act("/admin/payouts", "routes/$role.payouts._index", {
      intent: "pay",
      ids: [pending.id],
      method: "paypal",
    });
    expect(res.status).toBe(422);
    expect((await res.json()).error.messageKey.key).toBe("Payouts:errors.planWithoutMethod");
    await expect(
      payPayouts(shopDb(db(), shop.id), { id: null, role: "admin" }, { ids: [pending.id], method: "paypal" }),
    ).rejects.toMatchObject({ code: "validation_failed" });
    expect((await db().payout.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("pending");
  });

  it("keeps auto-pay's payouts pending and fails a batch made before the downgrade without sending it", async () => {
    const { shop, pending } = await connectedShop("growth");
    // A batch made while the plan had PayPal, then the shop moved to free before it was sent.
    const { batchId } = await db().$transaction((tx) =>
      createPayoutBatch(tx, shop.id, { payoutIds: [pending.id], method: "paypal", createdBy: "u" }),
    );
    await db().shop.update({ where: { id: shop.id }, data: { pricingPlan: "free" } });
    await drainJobs();
    expect(paypal.fake().posts).toHaveLength(0);
    expect(await db().payout.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({
      status: "failed",
      failureReason: "Payouts:errors.planWithoutMethod",
    });
    expect((await db().payoutBatch.findUniqueOrThrow({ where: { id: batchId } })).status).toBe("failed");

    // Auto-pay with PayPal as the default method: the lines wait in a pending payout.
    const runAt = new Date().toISOString();
    await db().shop.update({
      where: { id: shop.id },
      data: {
        settings: withPaymentSettings(
          "{}",
          paymentSettingsSchema.parse({
            defaultMethod: "paypal",
            autoPay: { mode: "monthly", day: 1 },
            nextRunAt: runAt,
          }),
        ),
      },
    });
    await db().$transaction((tx) => runAutoPay(tx, { shopId: shop.id, runAt }));
    expect(paypal.fake().posts).toHaveLength(0);
    expect(await db().payout.count({ where: { shopId: shop.id, status: "pending" } })).toBe(1);
    expect(await db().payoutBatch.count({ where: { shopId: shop.id } })).toBe(1);
  });
});
