import { getDb } from "../../db.server";
import { bind, dialectOf, sqlDate } from "../../db/dialect";
import { gaugeCollectedOnScrape } from "./metrics.server";

// The job queue as Prometheus sees it, read from the Job table when /metrics
// is scraped (one grouped statement on the (status, runAt) index): jobs due
// and not yet taken, how long the oldest of them has waited, jobs running and
// jobs that failed for good, by type. The queue is shared, so every instance
// reports the same numbers.

interface Row {
  type: string;
  status: string;
  n: number | bigint | string;
  oldest: Date | string | null;
}

let snapshot: Promise<Row[]> = Promise.resolve([]);

/**
 * Reads the queue once for a scrape: its four gauges are then collected from
 * what it read. A database that does not answer leaves them empty, so the
 * process's own metrics are still served.
 */
export function readQueueForScrape(now = new Date()) {
  const db = getDb();
  const dialect = dialectOf(db);
  const rows = db.$queryRawUnsafe<Row[]>(
    bind(
      dialect,
      `SELECT "type", "status", COUNT(*) AS n, MIN("runAt") AS oldest FROM "Job"
       WHERE ("status" = 'queued' AND "runAt" <= ?) OR "status" IN ('running', 'failed')
       GROUP BY "type", "status"`,
    ),
    sqlDate(dialect, now),
  );
  snapshot = rows.catch(() => []);
  return snapshot;
}

let registered = false;

export function registerQueueMetrics() {
  if (registered) return;
  registered = true;
  const fill =
    (status: string, value: (row: Row, now: Date) => number) =>
    async (gauge: { reset(): void; set(labels: Record<string, string>, v: number): void }) => {
      const now = new Date();
      gauge.reset();
      for (const row of await snapshot) if (row.status === status) gauge.set({ type: row.type }, value(row, now));
    };
  const count = (row: Row) => Number(row.n);
  gaugeCollectedOnScrape(
    "jobs_due",
    "Jobs whose time has come and that no worker has taken yet, by type.",
    ["type"],
    fill("queued", count),
  );
  gaugeCollectedOnScrape(
    "jobs_oldest_due_seconds",
    "How long the oldest due job of each type has waited for a worker.",
    ["type"],
    fill("queued", (row, now) =>
      row.oldest ? Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000) : 0,
    ),
  );
  gaugeCollectedOnScrape("jobs_running", "Jobs a worker holds now, by type.", ["type"], fill("running", count));
  gaugeCollectedOnScrape(
    "jobs_failed",
    "Jobs that failed for good (kept for a look), by type.",
    ["type"],
    fill("failed", count),
  );
}
