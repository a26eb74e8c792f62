import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { enqueueJob } from "../jobs/enqueue.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { nextAutoPayAt } from "./auto-pay-schedule";
import { methodsOfAffiliates } from "./affiliate-payout-choice.server";
import { createPayoutBatchesByChoice } from "./create-payout-batch.server";
import { paymentSettingsOf, type PaymentSettings, type PaymentSettingsForm } from "./payment-settings";
import { requestPayoutRefresh } from "./payout-refresh-job.server";
import { refreshPendingPayouts } from "./refresh-pending-payouts.server";

// Settings › Payment and the auto-pay schedule. The next run is a durable
// job (payouts.auto-pay) queued for its time; the settings keep that time,
// so a job queued for a schedule the merchant has since changed finds a
// different time there and does nothing. A run gathers the approved lines
// into pending payouts, puts every positive one into a batch of the method
// its affiliate is paid by (their choice, else the shop's default; sent by
// the batch's job after the commit for PayPal, store credit and codes),
// records it on each payout's history and in the batch (createdBy
// "schedule"), and queues the next run.

export async function loadPaymentSettings(db: ShopDb) {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
  return paymentSettingsOf(shop.settings);
}

async function schedule(tx: Tx, shopId: string, settings: PaymentSettings, timezone: string, now: Date) {
  const next = nextAutoPayAt(settings.autoPay, timezone, now, settings.lastRunAt ? new Date(settings.lastRunAt) : null);
  const nextRunAt = next?.toISOString() ?? null;
  if (next) {
    await enqueueJob(
      tx,
      "payouts.auto-pay",
      { shopId, runAt: nextRunAt! },
      { runAt: next, uniqueKey: `auto-pay:${shopId}:${nextRunAt}` },
    );
  }
  return { ...settings, nextRunAt };
}

export async function savePaymentSettings(db: ShopDb, form: PaymentSettingsForm, timezone: string) {
  return db.$transaction(async (tx) => {
    const shop = await tx.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
    const current = paymentSettingsOf(shop.settings);
    const next = await schedule(tx, db.$shopId, { ...current, ...form }, timezone, new Date());
    await saveShopSetting(tx, db.$shopId, "payment", next);
    // A new minimum opens or closes pending payouts (payout-refresh-job.server.ts).
    await requestPayoutRefresh(tx, db.$shopId, `settings:${Date.now()}`);
    return next;
  });
}

/** The payouts.auto-pay job. */
export async function runAutoPay(tx: Tx, payload: { shopId: string; runAt: string }) {
  const shop = await tx.shop.findUnique({
    where: { id: payload.shopId },
    select: { settings: true, timezone: true, uninstalledAt: true },
  });
  if (!shop || shop.uninstalledAt) return;
  const settings = paymentSettingsOf(shop.settings);
  // A schedule changed since this job was queued: the new one has its own job.
  if (settings.autoPay.mode === "off" || settings.nextRunAt !== payload.runAt) return;
  const now = new Date();
  await refreshPendingPayouts(tx, payload.shopId);
  const pending = await tx.payout.findMany({
    where: { shopId: payload.shopId, status: "pending", amount: { gt: 0 } },
    select: { id: true, affiliateId: true },
  });
  // Each affiliate is paid by their own choice (the shop's default where
  // they have none, noted on the payout). A method the shop cannot use now
  // (its plan, a PayPal connection, a sender this build lacks) would fail
  // every payout: those stay pending. What was paid is told by the batches
  // (createdBy "schedule", their totals) and each payout's history
  // ("schedule" as the actor); e-mail notifications hang off the payout events.
  if (pending.length > 0) {
    const methodOf = await methodsOfAffiliates(
      tx,
      payload.shopId,
      pending.map((p) => p.affiliateId),
      settings,
    );
    await createPayoutBatchesByChoice(tx, payload.shopId, {
      payoutIds: pending.map((p) => p.id),
      affiliateOf: new Map(pending.map((p) => [p.id, p.affiliateId])),
      methodOf,
      createdBy: "schedule",
      takeWhatIsPending: true,
      skipUnusable: true,
    });
  }
  // The next run comes after this one's slot even if the job ran early.
  const from = new Date(Math.max(now.getTime(), Date.parse(payload.runAt)));
  const next = await schedule(tx, payload.shopId, { ...settings, lastRunAt: from.toISOString() }, shop.timezone, from);
  await saveShopSetting(tx, payload.shopId, "payment", next);
}
