import { getDb, type Db } from "../db.server";
import { scheduleRollupSweep } from "../models/dashboard/rollup.server";
import { scheduleDailyMail } from "../models/notifications/scheduled-mail.server";
import { queueWebPixelSyncs } from "../models/shop/web-pixel.server";
import { scheduleTierEvaluation } from "../models/tiers/evaluate-tiers.server";
import { getConfig } from "../config.server";

// Jobs that queue their own next run (the dashboard's rollup sweep, each
// shop's daily e-mails) are made sure of when a worker starts, not by the
// pages that show their results: a GET never writes (ADR 035). Install and
// the settings queue a shop's daily e-mails themselves; this catches shops
// from before a chain existed (and the demo), and a chain whose job gave up.
// So is each shop's nightly auto-tier run. Also made sure of here: every installed shop's web pixel points at this
// deployment's app URL (a new SHOPIFY_APP_URL updates them all).

const DAILY = "notifications.daily";
const TIERS = "tier.evaluate";

export async function ensureRecurringJobs(db: Db = getDb(), now = new Date()) {
  await scheduleRollupSweep(db, now);
  const shops = await db.$queryRawUnsafe<{ id: string; timezone: string }[]>(
    `SELECT s."id", s."timezone" FROM "Shop" s WHERE s."uninstalledAt" IS NULL AND NOT EXISTS (
       SELECT 1 FROM "Job" j WHERE j."type" = '${DAILY}' AND j."status" IN ('queued', 'running')
         AND j."uniqueKey" LIKE '${DAILY}:' || s."id" || ':%')`,
  );
  for (const shop of shops) await scheduleDailyMail(db, shop.id, shop.timezone, now);
  // The nightly auto-tier run of each shop with a ladder (scheduleTierEvaluation
  // queues nothing where automatic moves are off).
  const ladders = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT DISTINCT s."id" FROM "Shop" s JOIN "TierRule" r ON r."shopId" = s."id"
      WHERE s."uninstalledAt" IS NULL AND NOT EXISTS (
       SELECT 1 FROM "Job" j WHERE j."type" = '${TIERS}' AND j."status" IN ('queued', 'running')
         AND j."uniqueKey" LIKE '${TIERS}:' || s."id" || ':%')`,
  );
  let autotier = 0;
  for (const shop of ladders) if (await scheduleTierEvaluation(db, shop.id, now)) autotier++;
  const webPixels = await queueWebPixelSyncs(db, getConfig().appUrl, now);
  return { dailyMail: shops.length, autotier, webPixels };
}
