import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { drainJobs } from "~/worker/job-registry.server";
import { loadPaymentSettings, savePaymentSettings } from "~/models/payouts/auto-pay.server";
import { saveAffiliatePayoutChoice } from "~/models/payouts/affiliate-payout-choice.server";
import { paymentSettingsFormSchema } from "~/models/payouts/payment-settings";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useMoneyCheck } from "../support/money-check";

// Auto-pay as a durable job: saving the schedule queues the next run at its
// time in the shop's zone; the run gathers and batches every positive
// pending payout with the default method, and queues the following run; a
// job left from an older schedule does nothing.
applyTestEnv();
useTestDatabase();
useMoneyCheck();

async function setUp() {
  const shop = await buildShop();
  await getDb().shop.update({ where: { id: shop.id }, data: { timezone: "Asia/Tokyo" } });
  const campaign = await buildCampaign(shop.id);
  const ana = await buildAffiliate(shop.id, campaign.id);
  const ben = await buildAffiliate(shop.id, campaign.id);
  for (const [affiliateId, amount, ref] of [
    [ana.id, 3000, "a"],
    [ben.id, 800, "b"],
  ] as const) {
    const order = await buildOrder(shop.id, { affiliateId });
    await buildCommission(shop.id, order.id, affiliateId, { amount, status: "approved", sourceRef: ref });
  }
  return { shop, db: shopDb(getDb(), shop.id), ana };
}

const form = (input: object) => paymentSettingsFormSchema.parse(input);
const autoPayJobs = () => getDb().job.findMany({ where: { type: "payouts.auto-pay" }, orderBy: { runAt: "asc" } });

describe("auto-pay", () => {
  it("runs at the scheduled time, batches what is due with the default method and queues the next run", async () => {
    const { shop, db, ana } = await setUp();
    const saved = await savePaymentSettings(
      db,
      form({ minimumAmount: 1000, defaultMethod: "csv", autoPay: { mode: "monthly", day: 1 } }),
      "Asia/Tokyo",
    );
    // 06:00 in Tokyo on the 1st is 21:00 UTC the day before.
    expect(saved.nextRunAt).toMatch(/T21:00:00\.000Z$/);
    const [job] = await autoPayJobs();
    expect(job!.runAt.toISOString()).toBe(saved.nextRunAt);
    expect(JSON.parse(job!.payload)).toEqual({ shopId: shop.id, runAt: saved.nextRunAt });
    // Saving queued a refresh of the pending payouts (a new minimum); the run itself is not due yet.
    await drainJobs();
    expect((await getDb().job.findUniqueOrThrow({ where: { id: job!.id } })).status).toBe("queued");

    await getDb().job.update({ where: { id: job!.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await drainJobs();
    const batch = await getDb().payoutBatch.findFirstOrThrow({ where: { shopId: shop.id } });
    expect([batch.createdBy, batch.method, batch.itemCount, JSON.parse(batch.totals)]).toEqual([
      "schedule",
      "csv",
      1,
      [{ currency: "USD", amount: 3000 }],
    ]);
    const payout = await getDb().payout.findFirstOrThrow({ where: { batchId: batch.id }, include: { events: true } });
    expect([payout.affiliateId, payout.status]).toEqual([ana.id, "processing"]);
    expect(payout.events.map((e) => e.actor)).toContain("schedule");
    // Ben's 8.00 is below the 10.00 minimum: it carries over.
    expect(await getDb().payout.count({ where: { shopId: shop.id } })).toBe(1);

    const after = await loadPaymentSettings(db);
    expect(after.lastRunAt).not.toBeNull();
    expect(new Date(after.nextRunAt!).getTime()).toBeGreaterThan(new Date(saved.nextRunAt!).getTime());
    const queued = (await autoPayJobs()).filter((j) => j.status === "queued");
    expect(queued.map((j) => j.runAt.toISOString())).toEqual([after.nextRunAt]);
  });

  it("a job of a schedule changed since does nothing", async () => {
    const { shop, db } = await setUp();
    await savePaymentSettings(db, form({ autoPay: { mode: "every", days: 7 } }), "Asia/Tokyo");
    await savePaymentSettings(db, form({ autoPay: { mode: "off" } }), "Asia/Tokyo");
    expect((await loadPaymentSettings(db)).nextRunAt).toBeNull();
    await getDb().job.updateMany({ where: { type: "payouts.auto-pay" }, data: { runAt: new Date(Date.now() - 1000) } });
    await drainJobs();
    expect(await getDb().payoutBatch.count({ where: { shopId: shop.id } })).toBe(0);
  });

  it("pays each affiliate by their own method, the shop's default only where they have none, and says so", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const db = shopDb(getDb(), shop.id);
    const bank = await buildAffiliate(shop.id, campaign.id);
    const none = await buildAffiliate(shop.id, campaign.id);
    const dropped = await buildAffiliate(shop.id, campaign.id);
    const paypal = await buildAffiliate(shop.id, campaign.id, { paypalEmail: "p@pay.example" });
    await saveAffiliatePayoutChoice(getDb(), shop.id, bank.id, {
      method: "bank",
      details: [{ label: "IBAN", value: "DE89370400440532013000" }],
    });
    await saveAffiliatePayoutChoice(getDb(), shop.id, dropped.id, { method: "store_credit" });
    for (const [i, a] of [bank, none, dropped, paypal].entries()) {
      const order = await buildOrder(shop.id, { affiliateId: a.id });
      await buildCommission(shop.id, order.id, a.id, { amount: 2000, status: "approved", sourceRef: `c${i}` });
    }
    // Store credit is no longer offered; PayPal is offered but the shop has not connected it.
    await savePaymentSettings(
      db,
      form({ affiliateMethods: ["paypal", "bank"], defaultMethod: "csv", autoPay: { mode: "every", days: 7 } }),
      "UTC",
    );
    await getDb().job.updateMany({ where: { type: "payouts.auto-pay" }, data: { runAt: new Date(Date.now() - 1000) } });
    await drainJobs();

    const payouts = await getDb().payout.findMany({
      where: { shopId: shop.id },
      include: { batch: true, events: { orderBy: { createdAt: "asc" } } },
    });
    const of = (id: string) => payouts.find((p) => p.affiliateId === id)!;
    expect([of(bank.id).status, of(bank.id).batch?.method, of(bank.id).events.at(-1)?.message]).toEqual([
      "processing",
      "manual",
      "batch:manual",
    ]);
    expect([of(none.id).batch?.method, of(none.id).events.at(-1)?.message]).toEqual(["csv", "batch:csv:default"]);
    expect([of(dropped.id).batch?.method, of(dropped.id).events.at(-1)?.message]).toEqual([
      "csv",
      "batch:csv:not_offered",
    ]);
    // PayPal cannot be used by the shop now: that payout waits, nothing fails.
    expect([of(paypal.id).status, of(paypal.id).batchId]).toEqual(["pending", null]);
    expect(await getDb().payoutBatch.count({ where: { shopId: shop.id, createdBy: "schedule" } })).toBe(2);
  });

  it("refuses settings that do not parse", () => {
    expect(paymentSettingsFormSchema.safeParse({ autoPay: { mode: "monthly", day: 31 } }).success).toBe(false);
    expect(paymentSettingsFormSchema.safeParse({ minimumAmount: -1 }).success).toBe(false);
    expect(paymentSettingsFormSchema.safeParse({ nextRunAt: "2026-01-01T00:00:00Z" }).success).toBe(false);
    expect(paymentSettingsFormSchema.safeParse({ affiliateMethods: [] }).success).toBe(false);
  });
});
