import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { AppError } from "~/lib/errors";
import { rateEntryFormSchema } from "~/models/currency/rate-entry-schema";
import { saveAffiliatePayoutCurrency } from "~/models/payouts/affiliate-payout-choice.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { withPaymentSettings, paymentSettingsOf } from "~/models/payouts/payment-settings";
import { rateHoldsOf } from "~/models/payouts/payout-currency.server";
import { addMerchantRate } from "~/models/payouts/rate-table.server";
import { refreshPendingPayouts } from "~/models/payouts/refresh-pending-payouts.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useMoneyCheck } from "../support/money-check";
import { connectShopToFake, usePaypal } from "../support/paypal";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Payouts in the affiliate's currency (ADR 052) against the fake PayPal
// (Prism checks each request against PayPal's OpenAPI file): converted once
// as the payout leaves pending, sent in that currency; without a fresh rate
// the payout waits; bad input changes nothing.
applyTestEnv({ PAYPAL_FOLLOW_SECONDS: "0" });
const paypal = usePaypal();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const db = () => getDb();

/** A USD shop allowing CAD, one Canadian affiliate who asked for CAD, one pending payout of $25.00. */
async function canadian() {
  const shop = await buildShop();
  await connectShopToFake(shop.id);
  const settings = withPaymentSettings(shop.settings, { ...paymentSettingsOf("{}"), payoutCurrencies: ["CAD"] });
  await db().shop.update({ where: { id: shop.id }, data: { settings } });
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id);
  await db().affiliate.update({ where: { id: affiliate.id }, data: { paypalEmail: "lea@example.ca" } });
  await saveAffiliatePayoutCurrency(db(), shop.id, affiliate.id, { payoutCurrency: "CAD" });
  const order = await buildOrder(shop.id, { affiliateId: affiliate.id, currency: "USD" });
  await buildCommission(shop.id, order.id, affiliate.id, { amount: 2_500, status: "approved", currency: "USD" });
  await db().$transaction((tx) => refreshPendingPayouts(tx, shop.id));
  const payout = await db().payout.findFirstOrThrow({ where: { shopId: shop.id, status: "pending" } });
  const pay = () =>
    db().$transaction((tx) =>
      createPayoutBatch(tx, shop.id, { payoutIds: [payout.id], method: "paypal", createdBy: "test" }),
    );
  return { shop, affiliate, payout, pay, sdb: shopDb(db(), shop.id) };
}

describe("a payout in the affiliate's currency", () => {
  it("converts once at the stored rate and sends the PayPal item in CAD; a newer rate changes nothing", async () => {
    const fake = paypal.fake();
    const { shop, payout, pay, sdb } = await canadian();
    await addMerchantRate(sdb, { currency: "CAD", rate: "1.3521" }, "Mia Merchant");
    const { batchId } = await pay();

    const row = await db().payout.findUniqueOrThrow({ where: { id: payout.id } });
    // Commissions and the payout's own amount stay in the shop's money.
    expect(row).toMatchObject({
      amount: 2_500,
      currency: "USD",
      status: "processing",
      payoutCurrency: "CAD",
      payoutAmount: 3_380, // 25.00 × 1.3521 = 33.8025 → 33.80
      payoutRate: "1.3521",
      payoutRateSource: "merchant",
      payoutRateBy: "Mia Merchant",
    });
    expect(row.payoutRateAt).toBeInstanceOf(Date);

    // A newer rate entered before the send changes nothing: the item pays what was converted.
    await addMerchantRate(sdb, { currency: "CAD", rate: "1.5" }, "Mia Merchant");
    await drainJobs();
    const sent = [...fake.batches.values()];
    expect(sent).toHaveLength(1);
    expect(fake.posts.map((p) => p.senderBatchId)).toEqual([batchId]);
    expect(sent[0]!.items.map((i) => i.amount)).toEqual([{ currency: "CAD", value: "33.80" }]);
    expect(fake.violations).toEqual([]);
    expect(await db().payout.findUniqueOrThrow({ where: { id: payout.id } })).toMatchObject({
      status: "paid",
      payoutAmount: 3_380,
      payoutRate: "1.3521",
    });
    expect(await db().commission.findFirstOrThrow({ where: { shopId: shop.id } })).toMatchObject({
      amount: 2_500,
      currency: "USD",
    });
  });

  it("waits without a rate, and with a rate older than seven days; Pay is refused and nothing moves", async () => {
    const { shop, payout, pay, sdb } = await canadian();
    expect([...(await rateHoldsOf(db(), shop.id, [payout.id]))]).toEqual([
      [payout.id, { reason: "rate_missing", currency: "CAD" }],
    ]);
    await expect(pay()).rejects.toMatchObject({ code: "validation_failed" });

    const old = await addMerchantRate(
      sdb,
      { currency: "CAD", rate: "1.35" },
      "Mia",
      new Date(Date.now() - 8 * 86_400_000),
    );
    expect(old.at.getTime()).toBeLessThan(Date.now());
    expect((await rateHoldsOf(db(), shop.id, [payout.id])).get(payout.id)).toEqual({
      reason: "rate_stale",
      currency: "CAD",
    });
    await expect(pay()).rejects.toBeInstanceOf(AppError);
    expect(await db().payout.findUniqueOrThrow({ where: { id: payout.id } })).toMatchObject({
      status: "pending",
      batchId: null,
      payoutAmount: null,
    });
    expect(await db().payoutBatch.count({ where: { shopId: shop.id } })).toBe(0);

    // A fresh rate ends the wait at once (nothing was stored as held).
    await addMerchantRate(sdb, { currency: "CAD", rate: "1.36" }, "Mia");
    expect((await rateHoldsOf(db(), shop.id, [payout.id])).size).toBe(0);
  });

  it("says on the payouts list which pending payout waits for a rate", async () => {
    const { shop, payout } = await canadian();
    const email = "owner@rates.example";
    await buildUser(shop.id, { role: "admin", email });
    const admin = new HttpClient(server.url);
    expect((await admin.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
    const res = await admin.get(`/admin/payouts?_data=${encodeURIComponent("routes/$role.payouts._index")}`);
    expect(res.status).toBe(200);
    const { noRate } = (await res.json()) as { noRate: Record<string, string> };
    expect(Object.keys(noRate)).toEqual([payout.id]);
    expect(noRate[payout.id]).toContain("CAD");
  });

  it("changes nothing on bad input", async () => {
    const { shop, affiliate, sdb } = await canadian();
    for (const rate of ["0", "0.000", "-1.2", "1,35", "1.123456789", "abc", "1000001", ""]) {
      expect(rateEntryFormSchema.safeParse({ currency: "CAD", rate }).success, rate).toBe(false);
    }
    for (const currency of ["CA", "XYZ", "cad1", ""]) {
      expect(rateEntryFormSchema.safeParse({ currency, rate: "1.3" }).success, currency).toBe(false);
    }
    expect(rateEntryFormSchema.parse({ currency: "cad", rate: " 1.30 " })).toEqual({ currency: "CAD", rate: "1.30" });
    // A currency the shop does not allow: refused, no rate stored.
    await expect(addMerchantRate(sdb, { currency: "GBP", rate: "0.8" }, "Mia")).rejects.toMatchObject({
      code: "validation_failed",
    });
    await expect(addMerchantRate(sdb, { currency: "USD", rate: "1" }, "Mia")).rejects.toBeInstanceOf(AppError);
    expect(await db().exchangeRate.count({ where: { shopId: shop.id } })).toBe(0);
    // The affiliate cannot pick a currency the shop does not offer.
    await expect(
      saveAffiliatePayoutCurrency(db(), shop.id, affiliate.id, { payoutCurrency: "GBP" }),
    ).rejects.toMatchObject({ code: "validation_failed" });
    expect((await db().affiliate.findUniqueOrThrow({ where: { id: affiliate.id } })).payoutCurrency).toBe("CAD");
    // The shop's own currency is stored as "none chosen".
    await saveAffiliatePayoutCurrency(db(), shop.id, affiliate.id, { payoutCurrency: "USD" });
    expect((await db().affiliate.findUniqueOrThrow({ where: { id: affiliate.id } })).payoutCurrency).toBeNull();
  });
});
