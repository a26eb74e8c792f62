import * as referralJobs from "../models/referrals/jobs.server";
import {
  DEFAULT_MAX_ATTEMPTS,
  drainJobs as drain,
  JobWorker,
  type JobDefinition,
  type WorkerOptions,
} from "../db/job-queue.server";
import { runBonusEvaluation } from "../models/bonuses/evaluate-bonuses.server";
import { runTierEvaluation } from "../models/tiers/evaluate-tiers.server";
import { planRollupJob, runRollupSweep } from "../models/dashboard/rollup.server";
import { prismaBulk } from "../db/bulk-sql.server";
import { dialectOf } from "../db/dialect";
import { dispatchedEventIds, planDispatchJob } from "./dispatch-event.server";
import { planEventDispatch } from "./dispatch-events-batch.server";
import { sendOutboxEmail, sendOutboxEmails } from "../models/mail/outbox.server";
import { failAffiliateImport, runAffiliateImport } from "../models/affiliates/csv-import.server";
import { failPaidImport, runPaidImport } from "../models/payouts/csv/paid-import-job.server";
import { sendFlowTrigger } from "../models/flow/send-flow-trigger.server";
import { createAffiliateCoupon } from "../models/marketings/affiliate-coupon.server";
import { planLeakCheckJob } from "../models/leaks/check-leak.server";
import { reconcileStoredPixel } from "../models/attribution/pixel-signal.server";
import { rotateLeakedCode } from "../models/leaks/rotate-code.server";
import { pushTypedCoupons } from "../models/marketings/push-typed-coupons.server";
import { runCatalogueSync } from "../models/portal/catalogue-sync.server";
import { runAutoPay } from "../models/payouts/auto-pay.server";
import { runPayoutRefresh } from "../models/payouts/payout-refresh-job.server";
import { planTaxFormReminders } from "../models/tax-forms/tax-form-reminder.server";
import { sendPayoutBatch } from "../models/payouts/send-payout-batch.server";
import { approveIfStillPending } from "../models/orders/adjust-order.server";
import { eraseShop } from "../models/privacy/compliance.server";
import { deliverWebhook } from "../models/webhooks-out/deliver-webhook.server";
import { isBatchableWebhook, planWebhookEvents, processEvent } from "../models/webhooks/process-webhook.server";
import { followPaypalBatch } from "../models/paypal/send-paypal-batch.server";
import { planDailyMail } from "../models/notifications/scheduled-mail.server";
import { runRetention } from "../models/ops/retention.server";
import { refreshGrantedScopes } from "../models/shop/granted-scopes.server";
import { syncWebPixel } from "../models/shop/web-pixel.server";
import { getConfig } from "../config.server";
import { JOB_PAYLOADS, type JobName } from "../models/jobs/job-payloads";

// Every job type the workers run: its payload schema and its handler. The
// type below makes this list complete (a job name without a handler, or a
// handler for a name that has no payload schema, does not compile), and each
// handler receives its payload already parsed by that schema.

// E-mails sent at once by a worker (the SMTP pool queues what its connections cannot take yet).
const EMAIL_LANES = 8;

type Registry = { [N in JobName]: JobDefinition<(typeof JOB_PAYLOADS)[N]> };

export const JOBS = {
  // The intake lane: an order's sale and commissions before the e-mails and
  // events earlier orders made (job-queue.server.ts, claimDue).
  webhook: {
    payload: JOB_PAYLOADS.webhook,
    lane: "intake",
    run: (payload, tx) => processEvent(tx, payload.eventId),
    batch: {
      canBatch: isBatchableWebhook,
      plan: (payloads, bulk) =>
        planWebhookEvents(
          bulk,
          payloads.map((p) => p.eventId),
        ),
    },
  },
  "orders.approve": {
    payload: JOB_PAYLOADS["orders.approve"],
    run: (payload, tx) => approveIfStillPending(tx, payload.orderId),
  },
  "shop.erase": {
    payload: JOB_PAYLOADS["shop.erase"],
    run: async (payload, tx) => {
      await eraseShop(tx, payload.shopDomain, { force: false });
    },
  },
  // Several at once over the pooled SMTP transport (outbox.server.ts): one
  // message mostly waits on the mail server's answers, so one at a time
  // leaves the worker idle. Each job sends one outbox row; a row already
  // sent is skipped, so lanes never send the same e-mail twice. The jobs of
  // one claim go together (sendOutboxEmails: rows read and marked in bulk),
  // since per-message queries, not SMTP, were what limited a bulk approval.
  "email.send": {
    payload: JOB_PAYLOADS["email.send"],
    effect: (payload, db, job) => sendOutboxEmail(payload, db, job),
    effectBatch: (payloads, bulk, jobs) => sendOutboxEmails(payloads, bulk, jobs, EMAIL_LANES),
  },
  "dashboard.rollup": {
    payload: JOB_PAYLOADS["dashboard.rollup"],
    // Counts outside the write lock; only the bucket rows are written in the transaction.
    plan: (payload, db) => planRollupJob(payload, db),
  },
  "dashboard.rollup-sweep": {
    payload: JOB_PAYLOADS["dashboard.rollup-sweep"],
    run: (payload, tx) => runRollupSweep(payload, tx),
  },
  // An effect job: it waits on Shopify, so no transaction is held meanwhile;
  // its upserts are idempotent, so running a slice twice does no harm.
  "catalogue.sync": {
    payload: JOB_PAYLOADS["catalogue.sync"],
    effect: async (payload, db) => {
      await runCatalogueSync(payload, db);
    },
  },
  // An effect job so that each chunk commits alone (progress shows between
  // chunks and no long write lock is held); a rerun resumes at `processed`.
  // Its last failed attempt marks the import failed for the page.
  "affiliates.import": {
    payload: JOB_PAYLOADS["affiliates.import"],
    effect: async (payload, db, job) => {
      try {
        await runAffiliateImport(db, payload);
      } catch (error) {
        if (job.attempts >= DEFAULT_MAX_ATTEMPTS) await failAffiliateImport(db, payload);
        throw error;
      }
    },
  },
  // The same for the paid-payouts CSV import.
  "payouts.paid-import": {
    payload: JOB_PAYLOADS["payouts.paid-import"],
    effect: async (payload, db, job) => {
      try {
        await runPaidImport(db, payload);
      } catch (error) {
        if (job.attempts >= DEFAULT_MAX_ATTEMPTS) await failPaidImport(db, payload);
        throw error;
      }
    },
  },
  // An effect job: it waits on Shopify; a trigger already sent is not sent again.
  "flow.trigger": {
    payload: JOB_PAYLOADS["flow.trigger"],
    effect: async (payload, db) => {
      await sendFlowTrigger(payload, db);
    },
  },
  // An effect job: it waits on Shopify; it checks for the code before creating it.
  "coupons.create": {
    payload: JOB_PAYLOADS["coupons.create"],
    effect: async (payload, db) => {
      await createAffiliateCoupon(payload, db);
    },
  },
  // An effect job too: it looks each code up before creating it; a refusal fails it for a retry.
  "coupons.push": {
    payload: JOB_PAYLOADS["coupons.push"],
    effect: async (payload, db) => {
      await pushTypedCoupons(payload, db);
    },
  },
  // Leak watch (ADR 051): reads the window outside the write lock; a few writes in the job's transaction.
  "leaks.check": {
    payload: JOB_PAYLOADS["leaks.check"],
    // One check reads the affiliate's whole window: of the checks a burst
    // queued (one per webhook slice), one claimed with others of its key, or
    // with one of its key still queued to run soon, is done without running.
    coalesce: ({ shopId, affiliateId, code }) => JSON.stringify([shopId, affiliateId, code]),
    plan: (payload, db) => planLeakCheckJob(payload, db),
  },
  // A read and a compare-and-set in the job's transaction (ADR 056).
  "pixel.reconcile": {
    payload: JOB_PAYLOADS["pixel.reconcile"],
    run: async (payload, tx) => {
      await reconcileStoredPixel(tx, payload);
    },
  },
  // An effect job: it waits on Shopify; each step looks before it writes.
  "leaks.rotate": {
    payload: JOB_PAYLOADS["leaks.rotate"],
    effect: async (payload, db) => {
      await rotateLeakedCode(payload, db);
    },
  },
  "event.dispatch": {
    payload: JOB_PAYLOADS["event.dispatch"],
    // Reads and composes (e-mails, webhook bodies) before its short write transaction.
    plan: async (payload, db) => {
      const write = await planDispatchJob(db, payload);
      return write && ((tx) => write(prismaBulk(tx, dialectOf(tx))));
    },
    // Many events in one transaction (a bulk approval's thousands, an order's
    // commissions); an event the batch cannot read comes back as an `alone`
    // job for `plan`, which fails it with the reason. Slices are sized in
    // events, not jobs: a job may carry a bulk write's events.
    batch: {
      canBatch: (payload) => !("alone" in payload && payload.alone),
      plan: planEventDispatch,
      size: (payload) => dispatchedEventIds(payload).length,
    },
  },
  // An effect job: waits on the merchant's server with no transaction held;
  // it records each attempt and queues the next one itself (its own back-off).
  // Several at once, so a receiver that hangs until the time limit does not
  // hold up everything else.
  "webhooks.deliver": {
    payload: JOB_PAYLOADS["webhooks.deliver"],
    effect: (payload, db) => deliverWebhook(payload, db),
    concurrency: 8,
  },
  // An effect job: the sender talks to PayPal or Shopify without holding a
  // transaction, and is safe to repeat for one batch (senders/index.server.ts).
  "payouts.send-batch": {
    payload: JOB_PAYLOADS["payouts.send-batch"],
    effect: (payload, db) => sendPayoutBatch(db, payload.batchId),
  },
  // An effect job: it waits on PayPal; applying an item's state twice changes nothing.
  "paypal.follow-batch": {
    payload: JOB_PAYLOADS["paypal.follow-batch"],
    effect: (payload, db) => followPaypalBatch(db, payload),
  },
  "payouts.auto-pay": {
    payload: JOB_PAYLOADS["payouts.auto-pay"],
    run: (payload, tx) => runAutoPay(tx, payload),
  },
  "payouts.refresh": {
    payload: JOB_PAYLOADS["payouts.refresh"],
    run: (payload, tx, job) => runPayoutRefresh(payload, tx, job),
  },
  // Reads and renders outside any transaction; writes the reminders with its "done" mark.
  "tax-forms.remind": {
    payload: JOB_PAYLOADS["tax-forms.remind"],
    plan: (payload, db) => planTaxFormReminders(db, payload.shopId),
  },
  "bonus.evaluate": {
    payload: JOB_PAYLOADS["bonus.evaluate"],
    run: (payload, tx) => runBonusEvaluation(tx, payload.shopId),
  },
  "tier.evaluate": {
    payload: JOB_PAYLOADS["tier.evaluate"],
    run: (payload, tx) => runTierEvaluation(tx, payload.shopId),
  },
  // Both only write this database: in the job's transaction, done mark included.
  "referrals.order": {
    payload: JOB_PAYLOADS["referrals.order"],
    run: async (payload, tx) => {
      await referralJobs.order(tx, payload);
    },
  },
  "referrals.order-adjusted": {
    payload: JOB_PAYLOADS["referrals.order-adjusted"],
    run: (payload, tx) => referralJobs.orderAdjusted(tx, payload),
  },
  "referrals.friend-code": {
    payload: JOB_PAYLOADS["referrals.friend-code"],
    effect: (payload, db) => referralJobs.friendCode(db, payload),
  },
  "referrals.reward": {
    payload: JOB_PAYLOADS["referrals.reward"],
    effect: (payload, db) => referralJobs.reward(db, payload),
  },
  "referrals.withdraw": {
    payload: JOB_PAYLOADS["referrals.withdraw"],
    effect: (payload, db) => referralJobs.withdraw(db, payload),
  },
  "notifications.daily": {
    payload: JOB_PAYLOADS["notifications.daily"],
    // Composes the day's e-mails before its short write transaction.
    plan: (payload, db) => planDailyMail(db, payload),
  },
  // An effect job: it deletes in small chunks, each committed alone, so no
  // long transaction (or SQLite write lock) is held; a repeat deletes nothing more.
  "retention.prune": {
    payload: JOB_PAYLOADS["retention.prune"],
    effect: async (payload, db) => {
      await runRetention(db, payload, getConfig().RETENTION_DAYS);
    },
  },
  // Effect jobs: each waits on Shopify with no transaction held, and ends in
  // the same state however often it runs.
  "pixel.sync": {
    payload: JOB_PAYLOADS["pixel.sync"],
    effect: async (payload, db) => {
      await syncWebPixel(payload, getConfig().appUrl, db);
    },
  },
  "scopes.refresh": {
    payload: JOB_PAYLOADS["scopes.refresh"],
    effect: async (payload, db) => {
      await refreshGrantedScopes(payload, getConfig().appUrl, db);
    },
  },
} satisfies Registry;

/** A worker that runs every job type (start() it; `npm run worker`, or inside `npm start`). */
export function createJobWorker(options: WorkerOptions = {}) {
  return new JobWorker(JOBS, options);
}

/** Runs every due job until none is left (tests, the benchmark). */
export function drainJobs(options: WorkerOptions = {}) {
  return drain(JOBS, options);
}
