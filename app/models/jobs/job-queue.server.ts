import { EventEmitter } from "node:events";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { ZodError } from "zod";
import { getConfig } from "../../config.server";
import { dbProvider, getDb, type Db } from "../../db.server";
import { prismaBulk, sqliteBulk, type BulkSql } from "../../db/bulk-sql.server";
import { parseDatabaseUrl } from "../../db/database-url";
import { errorForLog, logText } from "../../lib/log-text";

// A durable job queue in the database (table Job). Work is stored in the same
// transaction as the data that calls for it, so a crash loses nothing: a
// worker claims a job with a lease; if the worker dies, the lease runs out and
// another worker takes the job again. A handler's writes and the job's "done"
// mark commit together, so a job's effects happen once.

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export type JobHandler = (payload: any, tx: Tx, job: { id: string; attempts: number }) => Promise<void>;
// Runs many jobs of one type together (a busy webhook stream) with bulk
// statements, in two steps: `plan` reads and decides, and the step it returns
// writes, in one transaction with the jobs' "done" mark. On SQLite only the
// writing step holds the write lock. If the batch fails, each job is run on
// its own so one bad job cannot hold up the others; jobs that canBatch
// refuses always run on their own.
// A plan may set members aside whose payload no retry can mend (by their
// index in `payloads`): those jobs fail at once, like an InvalidPayloadError
// of a job run alone, and the rest of the batch is written together.
export type BatchWrite = (bulk: BulkSql) => Promise<void>;
export interface BatchPlan {
  write: BatchWrite;
  rejected: { index: number; message: string }[];
}
export interface BatchJobHandler {
  canBatch: (payload: any) => boolean;
  plan: (payloads: any[], bulk: BulkSql) => Promise<BatchWrite | BatchPlan>;
}

type ClaimedJob = { id: string; type: string; payload: string; attempts: number; runAt: Date; createdAt: Date };

const handlers = new Map<string, JobHandler>();
// Side effects outside this database (e-mail, outgoing webhooks): run without
// a transaction, at least once; the handler keeps its own record of what was
// done (an outbox row's status) so a retry after a crash repeats little.
export type EffectHandler = (payload: any, db: Db, job: { id: string; attempts: number }) => Promise<void>;
const effects = new Map<string, EffectHandler>();

export function registerEffectJob(type: string, handler: EffectHandler) {
  effects.set(type, handler);
}
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

/**
 * A failure no retry can mend: the job's payload (a webhook's body, say) is
 * not what its handler takes. Such a job fails at once, logged once.
 * zod's parse errors count as this too.
 */
export class InvalidPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidPayloadError";
  }
}

const MAX_LOGGED_ERROR = 300;

/** One short, escaped line about a failure, and whether retrying is pointless. */
export function describeJobFailure(error: unknown): { message: string; permanent: boolean } {
  const clip = (text: string) => logText(text.length > MAX_LOGGED_ERROR ? `${text.slice(0, MAX_LOGGED_ERROR)}…` : text);
  if (error instanceof ZodError || (error instanceof Error && error.name === "ZodError")) {
    const issues = (error as ZodError).issues;
    const shown = issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`)
      .join("; ");
    const more = issues.length > 3 ? `; and ${issues.length - 3} more` : "";
    const count = `${issues.length} problem${issues.length === 1 ? "" : "s"}`;
    return { permanent: true, message: clip(`the payload is not valid (${count}: ${shown}${more})`) };
  }
  if (error instanceof InvalidPayloadError)
    return { permanent: true, message: clip(`the payload is not valid (${error.message})`) };
  return {
    permanent: false,
    message: clip(error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
  };
}

/** Seconds to wait before attempt n+1: 2, 4, 8 ... capped at an hour. */
export function retryDelaySeconds(attempts: number) {
  return Math.min(3600, 2 ** Math.max(1, attempts));
}

export interface WorkerOptions {
  batchSize?: number;
  pollMs?: number;
  leaseMs?: number;
  // Pause between busy rounds (default: 2 ms on SQLite, none on PostgreSQL).
  yieldMs?: number;
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
  private readonly yieldMs: number;
  private readonly logger: Pick<Console, "error" | "info">;
  private readonly onEnqueued = () => this.kick();

  constructor(options: WorkerOptions = {}) {
    this.batchSize = options.batchSize ?? 50;
    this.pollMs = options.pollMs ?? 500;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.yieldMs = options.yieldMs ?? (dbProvider() === "sqlite" ? 2 : 0);
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
    this.sqlite?.close();
    this.sqlite = undefined;
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
        // SQLite has one write lock: a pause between rounds lets the web
        // process's writers (clicks, incoming webhooks) take it instead of
        // losing it, round after round, to this loop.
        if (worked > 0 && this.yieldMs > 0) await new Promise((r) => setTimeout(r, this.yieldMs));
      } while (!this.stopped && (worked > 0 || this.again));
    } catch (error) {
      this.logger.error(`[jobs] worker loop failed: ${errorForLog(error)}`);
    } finally {
      this.running = false;
      if (!this.stopped) this.timer = setTimeout(() => this.kick(), this.pollMs);
    }
  }

  /** Claims and runs the jobs that are due now; returns how many ran. */
  async runDue(now = new Date()): Promise<number> {
    const mine = await this.claimDue(now);
    const byType = new Map<string, ClaimedJob[]>();
    for (const job of mine) byType.set(job.type, [...(byType.get(job.type) ?? []), job]);
    for (const [type, jobs] of byType) {
      if (this.halted) break;
      const batch = batchHandlers.get(type);
      const payloads = jobs.map((j) => JSON.parse(j.payload) as unknown);
      const together = batch ? jobs.filter((_, i) => batch.canBatch(payloads[i])) : [];
      const alone =
        batch && together.length && (await this.runBatch(batch, together))
          ? jobs.filter((j) => !together.includes(j))
          : jobs;
      for (const job of alone) {
        if (this.halted) break;
        await this.runOne(job.id);
      }
    }
    return mine.length;
  }

  /**
   * Marks up to batchSize due jobs as running under a lease of this worker
   * and returns them, oldest first: queued jobs whose time has come, and
   * running jobs whose lease ran out (their worker died). One statement, so
   * two workers never claim the same job: SQLite runs it under its write
   * lock; on PostgreSQL, SKIP LOCKED lets concurrent workers take different
   * rows instead of waiting on each other.
   */
  private async claimDue(now: Date): Promise<ClaimedJob[]> {
    const pg = dbProvider() === "postgresql";
    const p = (n: number) => (pg ? `$${n}` : "?");
    const claim = `${this.id}:${randomBytes(4).toString("hex")}`;
    const rows = await getDb().$queryRawUnsafe<ClaimedJob[]>(
      `UPDATE "Job" SET "status" = 'running', "lockedBy" = ${p(1)}, "lockedUntil" = ${p(2)}, "attempts" = "attempts" + 1, "updatedAt" = ${p(3)}
       WHERE "id" IN (
         SELECT "id" FROM "Job"
         WHERE ("status" = 'queued' AND "runAt" <= ${p(4)}) OR ("status" = 'running' AND "lockedUntil" < ${p(5)})
         ORDER BY "runAt" LIMIT ${p(6)}${pg ? " FOR UPDATE SKIP LOCKED" : ""}
       )
       RETURNING "id", "type", "payload", "attempts", "runAt", "createdAt"`,
      claim,
      new Date(Date.now() + this.leaseMs),
      new Date(),
      now,
      now,
      this.batchSize,
    );
    return rows.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime());
  }

  private async runBatch(batch: BatchJobHandler, jobs: ClaimedJob[]) {
    const payloads = jobs.map((j) => JSON.parse(j.payload) as unknown);
    const done = { status: "done", lockedUntil: null, lastError: null, updatedAt: new Date() };
    let failed: { job: ClaimedJob; message: string }[] = [];
    // The plan's writes, then the jobs' marks: set-aside members failed, the rest done.
    const planned = async (bulk: BulkSql) => {
      const plan = await batch.plan(payloads, bulk);
      const { write, rejected } = typeof plan === "function" ? { write: plan, rejected: [] } : plan;
      failed = rejected.map((r) => ({
        job: jobs[r.index]!,
        message: describeJobFailure(new InvalidPayloadError(r.message)).message,
      }));
      const doneIds = jobs.filter((j) => !failed.some((f) => f.job === j)).map((j) => j.id);
      return async (writer: BulkSql) => {
        await write(writer);
        await writer.updateIn("Job", done, "id", doneIds);
        for (const f of failed)
          await writer.updateIn(
            "Job",
            {
              status: "failed",
              lockedUntil: null,
              lockedBy: null,
              lastError: f.message.slice(0, 2000),
              updatedAt: new Date(),
            },
            "id",
            [f.job.id],
          );
      };
    };
    try {
      const sqlite = this.sqliteConnection();
      if (sqlite) {
        // SQLite: the batch runs on the worker's own better-sqlite3
        // connection (prepared statements, no query compiler). The plan
        // reads committed data without a lock; only the writes wait for,
        // and hold, the write lock.
        const bulk = sqliteBulk(sqlite);
        const write = await planned(bulk);
        sqlite.exec("BEGIN IMMEDIATE");
        try {
          await write(bulk);
          sqlite.exec("COMMIT");
        } finally {
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        }
      } else {
        const provider = dbProvider();
        await getDb().$transaction(
          async (tx) => {
            // The claim set the lease; PostgreSQL locks rows, so no write-first is needed.
            const bulk = prismaBulk(tx, provider);
            const write = await planned(bulk);
            await write(bulk);
          },
          { timeout: 60_000 },
        );
      }
      for (const f of failed) this.logger.error(`[jobs] ${f.job.type} ${f.job.id} not processed: ${f.message}`);
      return true;
    } catch (error) {
      // Each job then fails, or not, on its own, and says so itself.
      const failure = describeJobFailure(error);
      this.logger.info(
        `[jobs] a batch of ${jobs.length} failed (${failure.permanent ? "an invalid payload" : failure.message}); running them one by one`,
      );
      return false;
    }
  }

  private sqlite: Database.Database | null | undefined;

  /** The worker's own SQLite connection (none on PostgreSQL). */
  private sqliteConnection() {
    if (this.sqlite !== undefined) return this.sqlite;
    const target = parseDatabaseUrl(getConfig().DATABASE_URL);
    if (target.provider !== "sqlite" || target.file === ":memory:") return (this.sqlite = null);
    const db = new Database(target.file, { timeout: 5000 });
    db.pragma("journal_mode = WAL");
    // As the app's other connections (docs/decisions/007).
    db.pragma("synchronous = NORMAL");
    return (this.sqlite = db);
  }

  private async runOne(id: string) {
    const db = getDb();
    const job = await db.job.findUniqueOrThrow({ where: { id } });
    const handler = handlers.get(job.type);
    const effect = effects.get(job.type);
    try {
      if (effect) {
        // Talks to the outside world: no transaction (and so no SQLite write
        // lock) is held while it waits on the network.
        await effect(JSON.parse(job.payload), db, { id: job.id, attempts: job.attempts });
        await db.job.update({ where: { id }, data: { status: "done", lockedUntil: null, lastError: null } });
        return;
      }
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      await db.$transaction(async (tx) => {
        // Write first, for the same reason as in runBatch.
        await tx.job.update({ where: { id }, data: { lockedUntil: new Date(Date.now() + this.leaseMs) } });
        await handler(JSON.parse(job.payload), tx, { id: job.id, attempts: job.attempts });
        await tx.job.update({ where: { id }, data: { status: "done", lockedUntil: null, lastError: null } });
      });
    } catch (error) {
      const { message, permanent } = describeJobFailure(error);
      const final = permanent || job.attempts >= job.maxAttempts;
      this.logger.error(
        permanent
          ? `[jobs] ${job.type} ${job.id} not processed: ${message}`
          : `[jobs] ${job.type} ${job.id} attempt ${job.attempts} failed${final ? " (giving up)" : ""}: ${message}`,
      );
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
  try {
    for (;;) {
      const ran = await worker.runDue();
      total += ran;
      if (ran === 0) return total;
    }
  } finally {
    await worker.stop();
  }
}
