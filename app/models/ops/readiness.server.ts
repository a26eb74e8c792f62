import { getDb, dbProvider } from "../../db.server";
import { readMigrations } from "../../db/migrate.server";
import { errorForLog } from "../../lib/log-text";
import { HEARTBEAT_STALE_MS, latestHeartbeat } from "./worker-heartbeat.server";

// GET /readyz: whether this instance can do its work. Ready when the database
// answers, every migration this version ships is applied (a newer version's
// extra ones do no harm), and a job worker's heartbeat is fresh (work queued
// now will be done). Each check has its own time limit, so a hung database
// makes the probe fail, not hang.

export interface Readiness {
  ready: boolean;
  checks: {
    database: { ok: boolean; ms: number; error?: string };
    migrations: { ok: boolean; expected: number; pending: string[] };
    worker: { ok: boolean; lastSeenSecondsAgo: number | null };
  };
}

const CHECK_TIMEOUT_MS = 3000;

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

// The migrations this version ships do not change while it runs.
let shipped: string[] | undefined;

export async function checkReadiness(now = new Date()): Promise<Readiness> {
  const db = getDb();
  const started = performance.now();
  const failed = (error: unknown) => errorForLog(error).split("\n")[0]!.slice(0, 200);
  let database: Readiness["checks"]["database"];
  try {
    await withTimeout(db.$queryRawUnsafe("SELECT 1"), "the database");
    database = { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    database = { ok: false, ms: Math.round(performance.now() - started), error: failed(error) };
  }
  shipped ??= readMigrations(dbProvider()).map((m) => m.name);
  let migrations: Readiness["checks"]["migrations"] = { ok: false, expected: shipped.length, pending: shipped };
  let worker: Readiness["checks"]["worker"] = { ok: false, lastSeenSecondsAgo: null };
  if (database.ok) {
    try {
      const rows = await withTimeout(
        db.$queryRawUnsafe<{ migration_name: string }[]>(
          `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        ),
        "the migrations table",
      );
      const applied = new Set(rows.map((r) => r.migration_name));
      const pending = shipped.filter((name) => !applied.has(name));
      migrations = { ok: pending.length === 0, expected: shipped.length, pending };
    } catch {
      // No migrations table yet: everything is pending.
    }
    try {
      const seen = await withTimeout(latestHeartbeat(db), "the worker heartbeat");
      const ago = seen ? Math.max(0, now.getTime() - seen.getTime()) : null;
      worker = {
        ok: ago !== null && ago <= HEARTBEAT_STALE_MS,
        lastSeenSecondsAgo: ago === null ? null : Math.round(ago / 1000),
      };
    } catch {
      // Before the migration that makes the table: no worker has been seen.
    }
  }
  return { ready: database.ok && migrations.ok && worker.ok, checks: { database, migrations, worker } };
}
