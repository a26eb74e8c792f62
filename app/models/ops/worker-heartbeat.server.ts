import os from "node:os";
import type { Db } from "../../db.server";
import { errorForLog } from "../../lib/log-text";

// Each job worker process touches its WorkerHeartbeat row every few seconds;
// GET /readyz (readiness.server.ts) calls the workers fresh when the newest
// row is younger than HEARTBEAT_STALE_MS. The row lives in the database, not
// in memory, so every app instance sees every worker, wherever it runs.

export const HEARTBEAT_EVERY_MS = 10_000;
export const HEARTBEAT_STALE_MS = 60_000;

export interface Heartbeat {
  stop(): Promise<void>;
}

export function startHeartbeat(db: Db, workerId: string, everyMs = HEARTBEAT_EVERY_MS): Heartbeat {
  const startedAt = new Date();
  const beat = async () => {
    const now = new Date();
    try {
      await db.workerHeartbeat.upsert({
        where: { id: workerId },
        create: { id: workerId, host: os.hostname().slice(0, 200), pid: process.pid, startedAt, seenAt: now },
        update: { seenAt: now },
      });
    } catch (error) {
      // The database is away for a moment: /readyz says so; the next beat tries again.
      console.error(`[worker] heartbeat of ${workerId} not recorded: ${errorForLog(error).split("\n")[0]}`);
    }
  };
  let current = beat();
  const timer = setInterval(() => (current = current.then(beat)), everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
      // Gone at once, rather than stale a minute from now.
      await db.workerHeartbeat.deleteMany({ where: { id: workerId } }).catch(() => {});
    },
  };
}

/** The newest heartbeat of any worker, or null when no worker has run. */
export async function latestHeartbeat(db: Db): Promise<Date | null> {
  const row = await db.workerHeartbeat.findFirst({ orderBy: { seenAt: "desc" }, select: { seenAt: true } });
  return row?.seenAt ?? null;
}
