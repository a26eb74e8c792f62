import { EventEmitter } from "node:events";
import { randomBytes } from "node:crypto";
import { getDb, type Db } from "../../db.server";

// A durable job queue in the database (table Job). Work is stored in the same
// transaction as the data that calls for it, so a crash loses nothing: a
// worker claims a job with a lease; if the worker dies, the lease runs out and
// another worker takes the job again. A handler's writes and the job's "done"
// mark commit together, so a job's effects happen once.

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export type JobHandler = (payload: any, tx: Tx, job: { id: string; attempts: number }) => Promise<void>;
// Runs many jobs of one type in one transaction (a busy webhook stream); if
// the batch fails, each job is run on its own so one bad job cannot hold up
// the others.
export type BatchJobHandler = (payloads: any[], tx: Tx) => Promise<void>;

const handlers = new Map<string, JobHandler>();
const batchHandlers = new Map<string, BatchJobHandler>();
// On globalThis: the server build and the start script load this module
// separately, and an enqueue in one must wake the worker of the other.
const globalSignals = globalThis as unknown as { __jobSignals?: EventEmitter };
const signals = (globalSignals.__jobSignals ??= new EventEmitter());
signals.setMaxListeners(100);

export function registerJobHandler(type: string, handler: JobHandler, batch?: BatchJobHandler) {
  handlers.set(type, handler);
  if (batch) batchHandlers.set(type, batch);
}

export interface EnqueueOptions {
  runAt?: Date;
  uniqueKey?: string;
  maxAttempts?: number;
}

/** Adds a job (inside the caller's transaction when given one). */
export async function enqueueJob(client: Tx | Db, type: string, payload: unknown, options: EnqueueOptions = {}) {
  const data = {
    type,
    payload: JSON.stringify(payload ?? {}),
    runAt: options.runAt ?? new Date(),
    maxAttempts: options.maxAttempts ?? 8,
    uniqueKey: options.uniqueKey ?? null,
  };
  const job = options.uniqueKey
    ? await client.job.upsert({ where: { uniqueKey: options.uniqueKey }, create: data, update: {} })
    : await client.job.create({ data });
  return job;
}

/** Wakes in-process workers (they also poll, so this is only a shortcut). */
export function notifyJobsEnqueued() {
  signals.emit("enqueued");
}

/** Seconds to wait before attempt n+1: 2, 4, 8 ... capped at an hour. */
export function retryDelaySeconds(attempts: number) {
  return Math.min(3600, 2 ** Math.max(1, attempts));
}

export interface WorkerOptions {
  batchSize?: number;
  pollMs?: number;
  leaseMs?: number;
  logger?: Pick<Console, "error" | "info">;
}

export class JobWorker {
  readonly id = `w-${process.pid}-${randomBytes(3).toString("hex")}`;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = true;
  // Set by stop(): a batch in progress ends after its current job.
  private halted = false;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly logger: Pick<Console, "error" | "info">;
  private readonly onEnqueued = () => this.kick();

  constructor(options: WorkerOptions = {}) {
    this.batchSize = options.batchSize ?? 50;
    this.pollMs = options.pollMs ?? 500;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.logger = options.logger ?? console;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.halted = false;
    signals.on("enqueued", this.onEnqueued);
    this.kick();
  }

  async stop() {
    this.stopped = true;
    this.halted = true;
    signals.off("enqueued", this.onEnqueued);
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
  }

  kick() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.loop();
  }

  private async loop() {
    this.running = true;
    try {
      let worked: number;
      do {
        this.again = false;
        worked = await this.runDue();
      } while (!this.stopped && (worked > 0 || this.again));
    } catch (error) {
      this.logger.error("[jobs] worker loop failed:", error);
    } finally {
      this.running = false;
      if (!this.stopped) this.timer = setTimeout(() => this.kick(), this.pollMs);
    }
  }

  /** Claims and runs the jobs that are due now; returns how many ran. */
  async runDue(now = new Date()): Promise<number> {
    const db = getDb();
    const dueWhere = {
      OR: [
        { status: "queued", runAt: { lte: now } },
        // A running job whose lease ran out belonged to a worker that died.
        { status: "running", lockedUntil: { lt: now } },
      ],
    };
    const due = await db.job.findMany({ where: dueWhere, orderBy: { runAt: "asc" }, take: this.batchSize, select: { id: true } });
    if (due.length === 0) return 0;
    // Claim with a token of this round, then read back what is ours: another
    // worker may have claimed some of the same jobs first.
    const claim = `${this.id}:${randomBytes(4).toString("hex")}`;
    await db.job.updateMany({
      where: { id: { in: due.map((j) => j.id) }, ...dueWhere },
      data: { status: "running", lockedBy: claim, lockedUntil: new Date(Date.now() + this.leaseMs), attempts: { increment: 1 } },
    });
    const mine = await db.job.findMany({ where: { lockedBy: claim, status: "running" }, orderBy: { runAt: "asc" } });
    const byType = new Map<string, typeof mine>();
    for (const job of mine) byType.set(job.type, [...(byType.get(job.type) ?? []), job]);
    for (const [type, jobs] of byType) {
      if (this.halted) break;
      const batch = batchHandlers.get(type);
      if (batch && jobs.length > 1 && (await this.runBatch(batch, jobs))) continue;
      for (const job of jobs) {
        if (this.halted) break;
        await this.runOne(job.id);
      }
    }
    return mine.length;
  }

  private async runBatch(batch: BatchJobHandler, jobs: { id: string; payload: string }[]) {
    try {
      await getDb().$transaction(
        async (tx) => {
          // A write first: on SQLite this takes the write lock at the start,
          // so no other connection's commit can invalidate what the batch
          // reads (a deferred transaction that read first would fail with
          // SQLITE_BUSY when it later tries to write).
          await tx.job.updateMany({ where: { id: { in: jobs.map((j) => j.id) } }, data: { lockedUntil: new Date(Date.now() + this.leaseMs) } });
          await batch(
            jobs.map((j) => JSON.parse(j.payload)),
            tx,
          );
          await tx.job.updateMany({ where: { id: { in: jobs.map((j) => j.id) } }, data: { status: "done", lockedUntil: null, lastError: null } });
        },
        { timeout: 60_000 },
      );
      return true;
    } catch (error) {
      this.logger.error(`[jobs] a batch of ${jobs.length} failed, running them one by one:`, error instanceof Error ? error.message : error);
      return false;
    }
  }

  private async runOne(id: string) {
    const db = getDb();
    const job = await db.job.findUniqueOrThrow({ where: { id } });
    const handler = handlers.get(job.type);
    try {
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      await db.$transaction(async (tx) => {
        // Write first, for the same reason as in runBatch.
        await tx.job.update({ where: { id }, data: { lockedUntil: new Date(Date.now() + this.leaseMs) } });
        await handler(JSON.parse(job.payload), tx, { id: job.id, attempts: job.attempts });
        await tx.job.update({ where: { id }, data: { status: "done", lockedUntil: null, lastError: null } });
      });
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const final = job.attempts >= job.maxAttempts;
      this.logger.error(`[jobs] ${job.type} ${job.id} attempt ${job.attempts} failed${final ? " (giving up)" : ""}: ${message}`);
      await db.job.update({
        where: { id },
        data: {
          status: final ? "failed" : "queued",
          runAt: new Date(Date.now() + retryDelaySeconds(job.attempts) * 1000),
          lockedUntil: null,
          lockedBy: null,
          lastError: message.slice(0, 2000),
        },
      });
    }
  }
}

/** Runs every due job until none is left (tests, the benchmark). */
export async function drainJobs(options: WorkerOptions = {}) {
  const worker = new JobWorker(options);
  let total = 0;
  for (;;) {
    const ran = await worker.runDue();
    total += ran;
    if (ran === 0) return total;
  }
}
