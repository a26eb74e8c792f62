import { getDb } from "../../db.server";
import { enqueueJob, notifyJobsEnqueued, registerJobHandler } from "../jobs/job-queue.server";
import { firstActivity } from "./dashboard-analytics.server";
import { HOUR_MS, changedOrderHours, hourRuns, recomputeHours, type Client } from "./rollup-sql.server";

// Keeps DashboardHour up to date from committed rows, without any change to
// the click and order write paths (ADR 009):
// - clicks never change, so the hours between the old and the new watermark
//   are recounted;
// - orders are found by Order.updatedAt (Prisma sets it on every create and
//   update: new orders, approvals, denials, refunds, cancellations), and the
//   hours they were placed in are recounted with their commissions.
// The new watermark trails the clock by LAG_MS so a transaction that was
// still open when the refresh read cannot commit a row stamped before it.

export const LAG_MS = 60_000;
/** A dashboard view older than this asks the worker for a refresh. */
export const STALE_MS = 5 * 60_000;
export const ROLLUP_JOB = "dashboard.rollup";

/** Brings one shop's rollup up to `now - LAG_MS`. Returns the hours recomputed. */
export async function refreshRollup(client: Client, shopId: string, now = new Date()): Promise<number> {
  const until = new Date(now.getTime() - LAG_MS);
  // Taking the state row first serializes refreshes of a shop (the row lock
  // on PostgreSQL; the write lock on SQLite).
  const state = await client.dashboardRollupState.upsert({
    where: { shopId },
    create: { shopId, watermark: new Date(0) },
    update: { updatedAt: now },
  });
  const since = state.watermark;
  if (until.getTime() <= since.getTime()) return 0;

  if (since.getTime() === 0) {
    // First run: everything the shop has, in one pass.
    const first = await firstHour(client, shopId);
    const last = Math.floor(now.getTime() / HOUR_MS) + 1;
    if (first !== null) await recomputeHours(client, shopId, first, last);
    await client.dashboardRollupState.update({
      where: { shopId },
      data: { watermark: until, pendingSales: await pendingTotal(client, shopId) },
    });
    return first === null ? 0 : last - first;
  }

  const clickHours: number[] = [];
  for (let h = Math.floor(since.getTime() / HOUR_MS); h <= Math.floor(until.getTime() / HOUR_MS); h++)
    clickHours.push(h);
  const orderHours = await changedOrderHours(client, shopId, since, until);
  const runs = hourRuns([...clickHours, ...orderHours]);
  for (const [from, to] of runs) await recomputeHours(client, shopId, from, to);
  await client.dashboardRollupState.update({
    where: { shopId },
    data: { watermark: until, pendingSales: await pendingTotal(client, shopId) },
  });
  return runs.reduce((n, [from, to]) => n + to - from, 0);
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
 * Asks the job worker to refresh a shop's rollup when it is older than
 * STALE_MS. The figures are right either way (what the rollup lacks is
 * counted live); a fresh rollup keeps the live part small.
 */
export async function requestRollupRefresh(shopId: string, watermark: Date | null, now = new Date()) {
  if (watermark && now.getTime() - watermark.getTime() < STALE_MS + LAG_MS) return false;
  const slot = Math.floor(now.getTime() / STALE_MS);
  await enqueueJob(getDb(), ROLLUP_JOB, { shopId }, { uniqueKey: `${ROLLUP_JOB}:${shopId}:${slot}`, maxAttempts: 3 });
  notifyJobsEnqueued();
  return true;
}

let registered = false;

export function registerDashboardJobs() {
  if (registered) return;
  registered = true;
  registerJobHandler(ROLLUP_JOB, async (payload: { shopId: string }, tx) => {
    const shop = await tx.shop.findUnique({ where: { id: payload.shopId }, select: { id: true } });
    if (shop) await refreshRollup(tx, shop.id);
  });
}
