import type { Db } from "../../db.server";
import { bind, dialectOf, sqlDate, type Dialect } from "../../db/dialect";
import { enqueueJob } from "../jobs/enqueue.server";

// The daily retention job ("retention.prune"): rows that only record work
// long done are deleted once they are RETENTION_DAYS old, so the tables the
// hot paths write do not grow without end:
// - done jobs;
// - processed webhook events (a replay of one that old is long past
//   Shopify's retries; the orders it made stay);
// - the bodies of sent e-mails (the row stays: its dedupe key keeps a
//   replayed event from sending twice, and the notification log its line);
// - finished outgoing webhook deliveries, with their attempts;
// - finished CSV imports (affiliates, paid payouts) with their stored rows
//   and report: the affiliates and payouts they made keep their own history;
// - Shopify Flow triggers sent, refused or skipped, and the records of Flow
//   action runs (Flow retries a run for a day at most);
// - heartbeats of workers gone for a day.
// Each statement deletes at most CHUNK rows and commits on its own, with a
// pause between, so SQLite's one write lock is never held for long.

const CHUNK = 500;
const DAY_MS = 86_400_000;

export interface PruneCounts {
  jobs: number;
  webhookEvents: number;
  emailBodies: number;
  webhookDeliveries: number;
  imports: number;
  flow: number;
  heartbeats: number;
}

export async function pruneOldRows(
  db: Db,
  options: { days: number; now?: Date; pauseMs?: number },
): Promise<PruneCounts> {
  const counts: PruneCounts = {
    jobs: 0,
    webhookEvents: 0,
    emailBodies: 0,
    webhookDeliveries: 0,
    imports: 0,
    flow: 0,
    heartbeats: 0,
  };
  if (options.days <= 0) return counts;
  const now = options.now ?? new Date();
  const dialect = dialectOf(db);
  const cutoff = sqlDate(dialect, new Date(now.getTime() - options.days * DAY_MS));
  const pause = () => new Promise((r) => setTimeout(r, options.pauseMs ?? (dialect === "sqlite" ? 5 : 0)));
  const exec = (sql: string, ...values: unknown[]) => db.$executeRawUnsafe(bind(dialect, sql), ...values);

  // Until a chunk comes back short: each chunk is one indexed statement.
  const inChunks = async (sql: string, ...values: unknown[]) => {
    let total = 0;
    for (;;) {
      const n = await exec(sql, ...values, CHUNK);
      total += n;
      if (n < CHUNK) return total;
      await pause();
    }
  };
  counts.jobs = await inChunks(
    `DELETE FROM "Job" WHERE "id" IN (SELECT "id" FROM "Job" WHERE "status" = 'done' AND "runAt" < ? LIMIT ?)`,
    cutoff,
  );
  counts.webhookEvents = await inChunks(
    `DELETE FROM "WebhookEvent" WHERE "id" IN (SELECT "id" FROM "WebhookEvent" WHERE "processedAt" < ? LIMIT ?)`,
    cutoff,
  );
  // No index serves these two: they walk the table once in id order.
  counts.emailBodies = await byIdOrder(db, dialect, pause, {
    select: `SELECT "id" FROM "OutboxEmail" WHERE "id" > ? AND "createdAt" < ? AND "status" IN ('sent', 'logged', 'unsent', 'failed') AND ("text" <> '' OR "html" IS NOT NULL) ORDER BY "id" LIMIT ?`,
    apply: (ids) => `UPDATE "OutboxEmail" SET "text" = '', "html" = NULL WHERE "id" IN (${ids})`,
    cutoff,
  });
  counts.webhookDeliveries = await byIdOrder(db, dialect, pause, {
    select: `SELECT "id" FROM "WebhookDelivery" WHERE "id" > ? AND "updatedAt" < ? AND "status" IN ('delivered', 'failed') ORDER BY "id" LIMIT ?`,
    before: (ids) => `DELETE FROM "WebhookAttempt" WHERE "deliveryId" IN (${ids})`,
    apply: (ids) => `DELETE FROM "WebhookDelivery" WHERE "id" IN (${ids})`,
    cutoff,
  });
  // One row per upload: few enough that a scan of the table is cheap.
  for (const table of ["AffiliateImport", "PaidPayoutImport"])
    counts.imports += await inChunks(
      `DELETE FROM "${table}" WHERE "id" IN (SELECT "id" FROM "${table}" WHERE "createdAt" < ? AND "status" IN ('done', 'failed') LIMIT ?)`,
      cutoff,
    );
  // Few rows per shop and day; the scan goes by the (shopId, createdAt) index where it can.
  counts.flow =
    (await inChunks(
      `DELETE FROM "FlowTrigger" WHERE "id" IN (SELECT "id" FROM "FlowTrigger" WHERE "createdAt" < ? AND "status" <> 'pending' LIMIT ?)`,
      cutoff,
    )) +
    (await inChunks(
      `DELETE FROM "FlowActionRun" WHERE "id" IN (SELECT "id" FROM "FlowActionRun" WHERE "createdAt" < ? LIMIT ?)`,
      cutoff,
    ));
  counts.heartbeats = await exec(
    `DELETE FROM "WorkerHeartbeat" WHERE "seenAt" < ?`,
    sqlDate(dialect, new Date(now.getTime() - DAY_MS)),
  );
  return counts;
}

async function byIdOrder(
  db: Db,
  dialect: Dialect,
  pause: () => Promise<unknown>,
  step: { select: string; before?: (ids: string) => string; apply: (ids: string) => string; cutoff: string },
) {
  let after = "";
  let total = 0;
  for (;;) {
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(bind(dialect, step.select), after, step.cutoff, CHUNK);
    if (rows.length === 0) return total;
    const ids = rows.map((r) => r.id);
    const marks = ids.map(() => "?").join(", ");
    if (step.before) await db.$executeRawUnsafe(bind(dialect, step.before(marks)), ...ids);
    total += await db.$executeRawUnsafe(bind(dialect, step.apply(marks)), ...ids);
    if (rows.length < CHUNK) return total;
    after = ids[ids.length - 1]!;
    await pause();
  }
}

/** The UTC day's run: 03:00, or now when that has passed (a worker starting late). */
function runFor(day: Date, now: Date) {
  const at = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 3));
  return at < now ? now : at;
}

const jobKey = (runAt: Date) => `retention.prune:${runAt.toISOString().slice(0, 10)}`;

/**
 * Queues today's run, once however many workers start (its unique key is the
 * day); each run queues the next day's. Nothing when RETENTION_DAYS is 0.
 */
export async function scheduleRetention(db: Db, days: number, now = new Date()) {
  if (days <= 0) return;
  const runAt = runFor(now, now);
  await enqueueJob(db, "retention.prune", { runAt: runAt.toISOString() }, { uniqueKey: jobKey(runAt), runAt });
}

/** The job: prune, log what went, queue tomorrow's run. */
export async function runRetention(db: Db, payload: { runAt: string }, days: number) {
  const counts = await pruneOldRows(db, { days });
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total > 0)
    console.log(
      `[retention] older than ${days} days: ${counts.jobs} jobs, ${counts.webhookEvents} webhook events, ` +
        `${counts.emailBodies} e-mail bodies, ${counts.webhookDeliveries} webhook deliveries, ${counts.imports} CSV imports; ` +
        `${counts.heartbeats} old heartbeats`,
    );
  const next = runFor(new Date(new Date(payload.runAt).getTime() + DAY_MS), new Date());
  await enqueueJob(db, "retention.prune", { runAt: next.toISOString() }, { uniqueKey: jobKey(next), runAt: next });
  return counts;
}
