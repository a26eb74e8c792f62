import { randomUUID } from "node:crypto";
import type { Db } from "../../db.server";
import type { BulkSql } from "../../db/bulk-sql.server";
import {
  DEFAULT_MAX_ATTEMPTS,
  insertJob,
  InvalidJobPayloadError,
  type EnqueueOptions,
} from "../../db/job-queue.server";
import type { Tx } from "../../db/transaction";
import { JOB_PAYLOADS, type JobName, type JobPayload } from "./job-payloads";

export { notifyJobsEnqueued } from "../../db/job-queue.server";

/** The payload as stored: checked against its job type's schema first, so a bad one never reaches the queue. */
function serialize<N extends JobName>(type: N, payload: JobPayload<N>): string {
  const parsed = JOB_PAYLOADS[type].safeParse(payload);
  if (!parsed.success) throw new InvalidJobPayloadError(type, parsed.error.issues);
  return JSON.stringify(parsed.data);
}

/** Adds a job (inside the caller's transaction when given one). */
export async function enqueueJob<N extends JobName>(
  client: Tx | Db,
  type: N,
  payload: JobPayload<N>,
  options: EnqueueOptions = {},
) {
  return insertJob(client, type, serialize(type, payload), options);
}

/** A Job row for a bulk insert (many jobs in one statement), built the way enqueueJob stores one. */
export function jobRow<N extends JobName>(type: N, payload: JobPayload<N>, options: EnqueueOptions & { now: Date }) {
  return {
    id: randomUUID(),
    type,
    payload: serialize(type, payload),
    uniqueKey: options.uniqueKey ?? null,
    status: "queued",
    runAt: options.runAt ?? options.now,
    attempts: 0,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    lockedUntil: null,
    lockedBy: null,
    lastError: null,
    createdAt: options.now,
    updatedAt: options.now,
  };
}

/**
 * Queues a job of `type` for `scope` (a shop) with the writer's other writes,
 * unless one is already waiting to start: that one runs after this commit
 * and sees the change. `cause` (an event id, a job id, a form's submission)
 * keys it, so a retried caller queues it once. The waiting job's row is
 * locked on PostgreSQL until this commits, so no worker can start it (the
 * claim skips locked rows) before this change is visible to it; on SQLite
 * this runs under the write lock, which gives the same.
 */
export async function queueUnlessWaiting<N extends JobName>(
  writer: BulkSql,
  type: N,
  payload: JobPayload<N>,
  scope: string,
  cause: string,
): Promise<boolean> {
  if (await writer.queuedJob(type, `${type}:${scope}:`)) return false;
  const job = jobRow(type, payload, { now: new Date(), uniqueKey: `${type}:${scope}:${cause}` });
  await writer.insertRows("Job", [job], { onConflict: "ignore" });
  return true;
}
