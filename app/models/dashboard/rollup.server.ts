import { getDb } from "../../db.server";
import { prismaBulk } from "../../db/bulk-sql.server";
import { bind, dialectOf, sqlDate } from "../../db/dialect";
import { enqueueJob, jobRow } from "../jobs/enqueue.server";
import type { Tx } from "../../db/transaction";
import { firstActivity } from "./dashboard-analytics.server";
import { firstHourOfDay, localDayOfHour, offsetSegments, safeZone, wholeHourOffsets } from "../../lib/date-presets";
import {
  HOUR_MS,
  allPlans,
  changedOrderHours,
  hourRuns,
  liveHours,
  recomputeDays,
  replaceHours,
  runPlan,
  type Client,
} from "./rollup-sql.server";

// Keeps DashboardHour up to date from committed rows, without any change to
// the click and order write paths (ADR 011):
// - clicks never change, so the hours between the old and the new watermark
//   are recounted;
// - orders are found by Order.updatedAt (Prisma sets it on every create and
//   update: new orders, approvals, denials, refunds, cancellations), and the
//   hours they were placed in are recounted with their commissions.
// The new watermark trails the clock by LAG_MS so a transaction that was
// still open when the refresh read cannot commit a row stamped before it.

export const LAG_MS = 60_000;
/** A rollup older than this is refreshed by the next sweep (runRollupSweep). */
export const STALE_MS = 5 * 60_000;
export const ROLLUP_JOB = "dashboard.rollup" as const;
export const ROLLUP_SWEEP_JOB = "dashboard.rollup-sweep" as const;

/**
 * Brings one shop's rollup up to `now - LAG_MS`, planned and written in one
 * call (the write in a transaction of its own unless `client` is one).
 * Returns the hours recomputed.
 */
export async function refreshRollup(client: Client, shopId: string, now = new Date()): Promise<number> {
  const plan = await planRollup(client, shopId, now);
  if (!plan) return 0;
  const written =
    "$transaction" in client ? await client.$transaction((tx) => plan.write(tx)) : await plan.write(client);
  return written ? plan.hours : 0;
}

/**
 * The recount of a shop's rollup, in two steps. The plan reads, outside any
 * transaction: the hours to recount (every hour since the watermark for
 * clicks, the hours of orders changed since then) and what their rows add
 * up to now, the part that reads every click and order of those hours. The
 * write, in the job's transaction, replaces those hour buckets, brings the
 * day rows in line from them and moves the watermark, only if the watermark
 * is still where the plan found it (a refresh that ran meanwhile wins; this
 * one writes nothing). A row that changes after the plan's read is stamped
 * after the new watermark (it trails the clock by LAG_MS), so the next
 * refresh recounts its hour.
 */
export async function planRollup(client: Client, shopId: string, now = new Date()) {
  const until = new Date(now.getTime() - LAG_MS);
  const state = await client.dashboardRollupState.findUnique({ where: { shopId } });
  const since = state?.watermark ?? new Date(0);
  if (until.getTime() <= since.getTime()) return null;

  let runs: [number, number][];
  if (since.getTime() === 0) {
    // First run: everything the shop has, in one pass.
    const first = await firstHour(client, shopId);
    runs = first === null ? [] : [[first, Math.floor(now.getTime() / HOUR_MS) + 1]];
  } else {
    const clickHours: number[] = [];
    for (let h = Math.floor(since.getTime() / HOUR_MS); h <= Math.floor(until.getTime() / HOUR_MS); h++)
      clickHours.push(h);
    runs = hourRuns([...clickHours, ...(await changedOrderHours(client, shopId, since, until))]);
  }
  const dialect = dialectOf(client);
  const counted = await runPlan(
    client,
    allPlans(runs.map(([from, to]) => liveHours(dialect, shopId, new Date(from * HOUR_MS), new Date(to * HOUR_MS)))),
  );
  const buckets = counted.flat();
  const shop = await client.shop.findUnique({ where: { id: shopId }, select: { timezone: true } });
  return {
    hours: runs.reduce((n, [from, to]) => n + to - from, 0),
    /** Writes the plan; false when another refresh moved the watermark first. */
    write: async (tx: Client): Promise<boolean> => {
      // The compare-and-set on the watermark serializes refreshes of a shop.
      const claimed = state
        ? (
            await tx.dashboardRollupState.updateMany({
              where: { shopId, watermark: since },
              data: { updatedAt: now },
            })
          ).count === 1
        : (
            await prismaBulk(tx, dialectOf(tx)).insertNew(
              "DashboardRollupState",
              [{ shopId, watermark: new Date(0), pendingSales: 0, dayZone: null, updatedAt: now }],
              "shopId",
            )
          ).length === 1;
      if (!claimed) return false;
      for (const [from, to] of runs) await replaceHours(tx, shopId, from, to, buckets);
      const dayZone = await refreshDays(tx, shopId, safeZone(shop?.timezone), state?.dayZone ?? null, runs);
      await tx.dashboardRollupState.update({
        where: { shopId },
        data: { watermark: until, pendingSales: await pendingTotal(tx, shopId), dayZone },
      });
      return true;
    },
  };
}

/**
 * Brings DashboardDay in line with the hour buckets just recomputed (all of
 * them when the zone changed). Returns the zone the day rows are in, or null
 * when the zone's offsets are not whole hours (its local days cut through
 * hour buckets, so days are read from the hours).
 */
async function refreshDays(
  client: Client,
  shopId: string,
  zone: string,
  builtZone: string | null,
  runs: [number, number][],
) {
  const bounds = await client.dashboardHour.aggregate({
    where: { shopId },
    _min: { hour: true },
    _max: { hour: true },
  });
  const lo = bounds._min.hour;
  const hi = bounds._max.hour;
  if (lo === null || hi === null || !wholeHourOffsets(zone, lo, hi + 1)) {
    await client.dashboardDay.deleteMany({ where: { shopId } });
    return null;
  }
  let dayRuns: [number, number][];
  if (builtZone === zone) {
    dayRuns = runs.map(([from, to]) => [localDayOfHour(zone, from), localDayOfHour(zone, to - 1) + 1]);
  } else {
    await client.dashboardDay.deleteMany({ where: { shopId } });
    dayRuns = [[localDayOfHour(zone, lo), localDayOfHour(zone, hi) + 1]];
  }
  for (const [fromDay, toDay] of mergeRuns(dayRuns)) {
    const fromHour = firstHourOfDay(zone, fromDay);
    const toHour = firstHourOfDay(zone, toDay);
    await recomputeDays(
      client,
      shopId,
      { fromDay, toDay, fromHour, toHour },
      { minutes: 1440, segments: offsetSegments(zone, fromHour, toHour) },
    );
  }
  return zone;
}

function mergeRuns(runs: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [from, to] of [...runs].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

async function pendingTotal(client: Client, shopId: string): Promise<number> {
  const sum = await client.dashboardHour.aggregate({ where: { shopId }, _sum: { pendingSales: true } });
  return sum._sum.pendingSales ?? 0;
}

async function firstHour(client: Client, shopId: string): Promise<number | null> {
  const first = await firstActivity(client, shopId);
  return first ? Math.floor(first.getTime() / HOUR_MS) : null;
}

/** Recounts every bucket of a shop (after a bulk import, or to repair). */
export async function rebuildRollup(shopId: string, now = new Date()) {
  const db = getDb();
  await db.$transaction(async (tx) => {
    await tx.dashboardHour.deleteMany({ where: { shopId } });
    await tx.dashboardRollupState.deleteMany({ where: { shopId } });
    await refreshRollup(tx, shopId, now);
  });
}

/**
 * The "dashboard.rollup-sweep" job, every STALE_MS: each installed shop
 * whose rollup is older than that and has had clicks or order changes since
 * gets a dashboard.rollup job (one per shop and slot), then the next sweep is
 * queued. The dashboard only reads: it used to ask for the refresh itself, a
 * write on every stale view (ADR 011, ADR 035).
 */
export async function runRollupSweep(payload: { slot: number }, tx: Tx, now = new Date()) {
  const dialect = dialectOf(tx);
  const staleBefore = sqlDate(dialect, new Date(now.getTime() - STALE_MS - LAG_MS));
  const epoch = sqlDate(dialect, new Date(0));
  const shops = await tx.$queryRawUnsafe<{ id: string }[]>(
    bind(
      dialect,
      `SELECT s."id" FROM "Shop" s LEFT JOIN "DashboardRollupState" r ON r."shopId" = s."id"
       WHERE s."uninstalledAt" IS NULL AND (r."shopId" IS NULL OR r."watermark" < ?)
         AND (EXISTS (SELECT 1 FROM "Order" o WHERE o."shopId" = s."id" AND o."updatedAt" > COALESCE(r."watermark", ?))
           OR EXISTS (SELECT 1 FROM "Click" c WHERE c."shopId" = s."id" AND c."createdAt" > COALESCE(r."watermark", ?)))`,
    ),
    staleBefore,
    epoch,
    epoch,
  );
  const slot = Math.max(payload.slot, Math.floor(now.getTime() / STALE_MS));
  const jobs = shops.map((shop) =>
    jobRow(ROLLUP_JOB, { shopId: shop.id }, { now, uniqueKey: `${ROLLUP_JOB}:${shop.id}:${slot}`, maxAttempts: 3 }),
  );
  await prismaBulk(tx, dialect).insertRows("Job", jobs, { onConflict: "ignore" });
  await scheduleRollupSweep(tx, now, slot + 1);
  return shops.length;
}

/** Queues the sweep of `slot` (default: the next one) unless it is queued already. */
export async function scheduleRollupSweep(
  client: Client,
  now = new Date(),
  slot = Math.floor(now.getTime() / STALE_MS) + 1,
) {
  await enqueueJob(
    client,
    ROLLUP_SWEEP_JOB,
    { slot },
    { runAt: new Date(slot * STALE_MS), uniqueKey: `${ROLLUP_SWEEP_JOB}:${slot}` },
  );
}

/**
 * The "dashboard.rollup" job, a plan job: a shop's rollup recounted outside
 * the write lock and written in a short transaction (a shop erased
 * meanwhile is skipped).
 */
export async function planRollupJob(payload: { shopId: string }, db: Client) {
  const shop = await db.shop.findUnique({ where: { id: payload.shopId }, select: { id: true } });
  if (!shop) return null;
  const plan = await planRollup(db, shop.id);
  return plan ? (tx: Tx) => plan.write(tx) : null;
}
