import { EventEmitter } from "node:events";
import { randomBytes, randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { ZodError, type z } from "zod";
import { getConfig } from "../config.server";
import { dbProvider, getDb, type Db } from "../db.server";
import { errorForLog, logText } from "../lib/log-text";
import { prismaBulk, sqliteBulk, type BulkSql, type SqliteBulk } from "./bulk-sql.server";
import { parseDatabaseUrl } from "./database-url";
import { bind, dialectOf, sqlDate } from "./dialect";
import { inJob, inReadStep } from "./db-context";
import { beginJobWrite, jobWriteDone } from "./sqlite-adapter.server";
import type { Tx } from "./transaction";
import { WAL_AUTOCHECKPOINT_PAGES } from "./sqlite-checkpointer.server";
import {
  explainLongHold,
  explainLongHoldsTo,
  holdStart,
  recordWriteLockHold,
  writeLockSummaryLine,
} from "./write-lock-stats";
import { nextMsPerJob, sliceSize } from "./write-slice";
import { jobCpuSummaryLine, measureJobCpu } from "./job-cpu-stats";

// A durable job queue in the database (table Job). Work is stored in the same
// transaction as the data that calls for it, so a crash loses nothing: a
// worker claims a job with a lease; if the worker dies, the lease runs out and
// another worker takes the job again. A handler's writes and the job's "done"
// mark commit together, so a job's effects happen once.

export interface JobInfo {
  id: string;
  attempts: number;
}

// Runs many jobs of one type together (a busy webhook stream) with bulk
// statements, in two steps: `plan` reads and decides, and the step it returns
// writes, in one transaction with the jobs' "done" mark. On SQLite only the
// writing step holds the write lock. If the batch fails, each job is run on
// its own so one bad job cannot hold up the others; jobs that canBatch
// refuses always run on their own.
// A plan may set members aside whose payload no retry can mend (by their
// index in `payloads`): those jobs fail at once, like an invalid payload of a
// job run alone, and the rest of the batch is written together.
export type BatchWrite = (bulk: BulkSql) => Promise<void>;
export interface BatchPlan {
  write: BatchWrite;
  rejected: { index: number; message: string }[];
}
export interface BatchJobHandler<P> {
  canBatch: (payload: P) => boolean;
  /**
   * Reads outside any transaction, on both databases: `bulk` for set-based
   * reads, `reader` (the app's client) for reads Prisma is better at (a
   * domain's own queries). What they read may change before the write runs:
   * the write checks again whatever must hold.
   */
  plan: (payloads: P[], bulk: BulkSql, reader: Tx) => Promise<BatchWrite | BatchPlan>;
  /**
   * How much one job writes, in the units slices are counted in (default 1:
   * a slice of writeBatch jobs). A job that carries many items (an
   * event.dispatch of a bulk write's events) counts each, so a slice stays
   * near the target hold; a job larger than a slice is written alone.
   */
  size?: (payload: P) => number;
}

/**
 * Runs many claimed jobs of one effect type at once (a bulk approval's
 * thousands of e-mails), with bulk statements outside any transaction (on
 * SQLite, the worker's own connection). It answers, for each payload in
 * order, null when that job is done, or the error that failed it: such a job
 * is retried with backoff (or fails) as if its effect had thrown alone. The
 * "done" marks of the batch are one statement. If the whole call throws,
 * every job of the batch counts as failed with that error.
 */
export type EffectBatchHandler<P> = (payloads: P[], bulk: BulkSql, jobs: JobInfo[]) => Promise<unknown[]>;

/**
 * What a job type is: the zod schema of its payload (parsed before the
 * handler runs) and its handler, one of
 * - `run`: the handler's writes and the job's "done" mark commit together, so
 *   its effects happen once;
 * - `effect`: side effects outside this database (e-mail, outgoing webhooks),
 *   run without a transaction, at least once; the handler keeps its own
 *   record of what was done (an outbox row's status) so a retry after a
 *   crash repeats little.
 */
export type JobDefinition<S extends z.ZodTypeAny> = {
  payload: S;
  /**
   * "intake": claimed ahead of older jobs of other types (the orders' own
   * webhook jobs, so a burst of the e-mails and events earlier orders made
   * never delays the next sale). Other types keep a fifth of a claim at
   * least once a second, so a steady stream of orders never starves them.
   */
  lane?: "intake";
  /**
   * For jobs that judge the current state (a check), not jobs that carry
   * their own data: claimed jobs of the type with the same key run once, as
   * the newest of them, and the others are marked done. Every claimed job was
   * committed before the claim, so what the others would have read is there
   * for the one that runs (a burst's leak checks: one per webhook slice, each
   * reading the affiliate's whole window).
   */
  coalesce?: (payload: z.output<S>) => string;
} & (
  | {
      run: (payload: z.output<S>, tx: Tx, job: JobInfo) => Promise<unknown>;
      batch?: BatchJobHandler<z.output<S>>;
      plan?: never;
      effect?: never;
      concurrency?: never;
      effectBatch?: never;
    }
  | {
      /**
       * Reads and decides outside any transaction (on SQLite, without the
       * write lock: a template render, a payload built), and returns the
       * write, which runs in the short transaction that marks the job done.
       * What it read may have changed by then: the write checks again
       * whatever must hold (a key not yet taken), as `run` would.
       */
      plan: (payload: z.output<S>, db: Db, job: JobInfo) => Promise<((tx: Tx) => Promise<unknown>) | null>;
      batch?: BatchJobHandler<z.output<S>>;
      run?: never;
      effect?: never;
      concurrency?: never;
      effectBatch?: never;
    }
  | {
      effect: (payload: z.output<S>, db: Db, job: JobInfo) => Promise<unknown>;
      /**
       * How many claimed jobs of this type run at once (default 1). For effects
       * that mostly wait on someone else's server (outgoing webhooks): one slow
       * receiver must not hold up every other job for its whole time limit.
       */
      concurrency?: number;
      /** Claimed jobs of this type together (see EffectBatchHandler); `effect` runs a job alone. */
      effectBatch?: EffectBatchHandler<z.output<S>>;
      run?: never;
      plan?: never;
      batch?: never;
    }
);

/** Every job type a worker runs, by name (app/worker/job-registry.server.ts). */
export type JobRegistry = Record<string, JobDefinition<z.ZodTypeAny>>;

type ClaimedJob = {
  id: string;
  type: string;
  payload: string;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  createdAt: Date;
};

// On globalThis: the server build and the start script load this module
// separately, and an enqueue in one must wake the worker of the other.
const globalSignals = globalThis as unknown as { __jobSignals?: EventEmitter };
const signals = (globalSignals.__jobSignals ??= new EventEmitter());
signals.setMaxListeners(100);

export interface EnqueueOptions {
  runAt?: Date;
  uniqueKey?: string;
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * Stores a job whose payload is already checked and serialized (inside the
 * caller's transaction when given one). The typed way in is enqueueJob of
 * app/models/jobs/enqueue.server.ts.
 */
export async function insertJob(client: Tx | Db, type: string, payload: string, options: EnqueueOptions = {}) {
  const now = new Date();
  const data = {
    type,
    payload,
    runAt: options.runAt ?? now,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    uniqueKey: options.uniqueKey ?? null,
  };
  if (!options.uniqueKey) return client.job.create({ data });
  // One statement that does nothing when the key exists: Prisma's upsert with
  // nothing to update reads, then inserts, and two callers racing for the
  // same key (two dashboard views, two workers) made one of them fail with a
  // unique violation on PostgreSQL.
  const dialect = dialectOf(client);
  const id = randomUUID();
  const inserted = await client.$queryRawUnsafe<{ id: string }[]>(
    bind(
      dialect,
      `INSERT INTO "Job" ("id", "type", "payload", "uniqueKey", "status", "runAt", "attempts", "maxAttempts", "createdAt", "updatedAt")
       VALUES (?, ?, ?, ?, 'queued', ?, 0, ?, ?, ?) ON CONFLICT ("uniqueKey") DO NOTHING RETURNING "id"`,
    ),
    id,
    type,
    payload,
    options.uniqueKey,
    sqlDate(dialect, data.runAt),
    data.maxAttempts,
    sqlDate(dialect, now),
    sqlDate(dialect, now),
  );
  if (inserted.length > 0) {
    return {
      ...data,
      id,
      status: "queued",
      attempts: 0,
      lockedUntil: null,
      lockedBy: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
  }
  return client.job.findUniqueOrThrow({ where: { uniqueKey: options.uniqueKey } });
}

/** A payload that does not match its job type's schema: it fails at once, without retries. */
export class InvalidJobPayloadError extends Error {
  constructor(type: string, issues: z.ZodIssue[]) {
    const detail = issues.map((i) => `${i.path.length ? i.path.join(".") : "payload"}: ${i.message}`).join("; ");
    super(`invalid payload for job type ${type}: ${detail}`);
    this.name = "InvalidJobPayloadError";
  }
}

/** The payload as the job type's handler receives it; throws InvalidJobPayloadError. */
export function parseJobPayload(registry: JobRegistry, type: string, raw: string): unknown {
  const definition = registry[type];
  if (!definition) throw new Error(`no handler for job type ${type}`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new InvalidJobPayloadError(type, [{ code: "custom", path: [], message: "not JSON" }]);
  }
  const parsed = definition.payload.safeParse(json);
  if (!parsed.success) throw new InvalidJobPayloadError(type, parsed.error.issues);
  return parsed.data;
}

/** Wakes in-process workers (they also poll, so this is only a shortcut). */
export function notifyJobsEnqueued() {
  signals.emit("enqueued");
}

/**
 * Calls `listener` once per turn of the event loop in which jobs were
 * queued in this process (the web process tells its worker process: start.ts).
 * Returns the unsubscribe.
 */
export function onJobsEnqueued(listener: () => void): () => void {
  let pending = false;
  const coalesced = () => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      listener();
    });
  };
  signals.on("enqueued", coalesced);
  return () => signals.off("enqueued", coalesced);
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
// While intake jobs fill every claim, how often the other types get their fifth of one.
const REST_SHARE_EVERY_MS = 1000;
/** Queued jobs of a coalescing type read to find the keys that will run later anyway. */
const COALESCE_QUEUED_MAX = 1000;
const COALESCE_DUE_WITHIN_MS = 60_000;
// ... and at most this part of the worker's time: one share of jobs that carry
// many items (an event.dispatch of 64 events) can take far longer than a
// second's worth, and the next share then waits for the orders' turn.
const REST_TIME_SHARE = 0.1;

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
  if (error instanceof InvalidJobPayloadError) return { permanent: true, message: clip(error.message) };
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
  /**
   * Most jobs of a batching type written in one transaction (default 50, a
   * claim). On SQLite a slice is smaller when the type's jobs take longer to
   * write (write-slice.ts holds it near TARGET_HOLD_MS).
   */
  writeBatch?: number;
  /** How long a write waits for SQLite's write lock before the job fails and is retried (default 60 s). */
  busyGiveUpMs?: number;
  /**
   * Logs the longest write-lock hold per job type when the worker stops
   * (`npm run worker`, the load bench), and explains each hold of 50 ms or
   * more as it ends (write-lock-stats.ts).
   */
  reportHolds?: boolean;
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
  private readonly busyGiveUpMs: number;
  private readonly writeBatch: number;
  private readonly reportHolds: boolean;
  private readonly logger: Pick<Console, "error" | "info">;
  private readonly onEnqueued = () => this.kick();
  private readonly intakeTypes: string[];
  /** While intake jobs fill the claims, when the other types may next have their share of one (claimDue). */
  private restShareAt = -Infinity;
  /** Whether the last claim gave the other types their share while intake jobs were waiting. */
  private sharedWhileWaiting = false;
  /** SQLite: each batching type's write time per job (per unit of its `size`), learned from its holds (write-slice.ts). */
  private readonly msPerJob = new Map<string, number>();

  constructor(
    private readonly registry: JobRegistry,
    options: WorkerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 50;
    this.intakeTypes = Object.keys(registry).filter((type) => registry[type]!.lane === "intake");
    this.pollMs = options.pollMs ?? 500;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.yieldMs = options.yieldMs ?? (dbProvider() === "sqlite" ? 2 : 0);
    this.busyGiveUpMs = options.busyGiveUpMs ?? 60_000;
    // On SQLite every other writer waits for a batch's write, so the slice is
    // learned from the holds (write-slice.ts), up to a claim. A fixed cap of
    // 16 on top kept an order's slice at a third of its 25 ms target: four
    // commits per claim, each rewriting the same index pages to the WAL, cost
    // 0.15 ms of worker CPU per order (ADR 063; the load bench prints the
    // longest hold).
    this.writeBatch = options.writeBatch ?? 50;
    this.reportHolds = options.reportHolds ?? false;
    this.logger = options.logger ?? console;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.halted = false;
    signals.on("enqueued", this.onEnqueued);
    if (this.reportHolds) explainLongHoldsTo((line) => this.logger.info(line));
    this.kick();
  }

  async stop() {
    this.stopped = true;
    this.halted = true;
    signals.off("enqueued", this.onEnqueued);
    if (this.reportHolds) explainLongHoldsTo(null);
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
    const holds = writeLockSummaryLine();
    if (holds && this.reportHolds) this.logger.info(holds);
    const cpu = jobCpuSummaryLine();
    if (cpu && this.reportHolds) this.logger.info(cpu);
    this.sqlite?.close();
    this.sqlite = undefined;
    this.sqliteStatements = undefined;
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
    let restMs = 0;
    for (const [type, jobs] of byType) {
      if (this.halted) break;
      const started = performance.now();
      // Statements run for these jobs are charged to their type (db-context.ts).
      await measureJobCpu(type, jobs.length, () => inJob(type, () => this.runType(type, jobs)));
      if (!this.intakeTypes.includes(type)) restMs += performance.now() - started;
    }
    if (this.sharedWhileWaiting)
      this.restShareAt = Math.max(this.restShareAt, now.getTime() + restMs * (1 / REST_TIME_SHARE - 1));
    return mine.length;
  }

  /**
   * The claimed jobs of a coalescing type that still need to run: the newest
   * of each key, unless a queued job of the key will run later anyway (and
   * any whose payload does not parse: runOne fails them). The others are
   * marked done, compare-and-set on this claim's lease.
   */
  private async coalesced(type: string, jobs: ClaimedJob[]): Promise<ClaimedJob[]> {
    const coalesce = this.registry[type]?.coalesce;
    if (!coalesce) return jobs;
    const keyOf = (payload: string) => {
      try {
        return coalesce(parseJobPayload(this.registry, type, payload));
      } catch {
        return null;
      }
    };
    // Jobs of the type still queued (a handful: they are cheap to find by
    // status and type) start reading after this claim's jobs were committed.
    // A retry waiting out its backoff does not count: it may run much later.
    const queued = await getDb().job.findMany({
      where: { status: "queued", type, runAt: { lte: new Date(Date.now() + COALESCE_DUE_WITHIN_MS) } },
      select: { payload: true },
      take: COALESCE_QUEUED_MAX,
    });
    const later = new Set(queued.map((job) => keyOf(job.payload)));
    const newest = new Map<string, ClaimedJob>();
    const kept = new Set<ClaimedJob>();
    for (const job of jobs) {
      const key = keyOf(job.payload);
      if (key === null) {
        kept.add(job);
        continue;
      }
      if (later.has(key)) continue;
      const seen = newest.get(key);
      if (!seen || job.createdAt >= seen.createdAt) newest.set(key, job);
    }
    for (const job of newest.values()) kept.add(job);
    const covered = jobs.filter((job) => !kept.has(job));
    if (covered.length)
      await getDb().job.updateMany({
        where: { id: { in: covered.map((job) => job.id) }, status: "running", lockedBy: { startsWith: this.id } },
        data: { status: "done", lockedUntil: null, lastError: null, updatedAt: new Date() },
      });
    return jobs.filter((job) => kept.has(job));
  }

  /** The claimed jobs of one type: together where the type batches, else one by one. */
  private async runType(type: string, claimed: ClaimedJob[]) {
    const jobs = await this.coalesced(type, claimed);
    const batch = this.registry[type]?.batch;
    const effectBatch = this.registry[type]?.effectBatch;
    // Only jobs whose payload parses go into a batch; runOne fails the others.
    const together: { job: ClaimedJob; payload: unknown }[] = [];
    if (effectBatch) {
      for (const job of jobs) {
        try {
          together.push({ job, payload: parseJobPayload(this.registry, type, job.payload) });
        } catch {
          // runOne fails it, with the reason.
        }
      }
      if (together.length) await this.runEffectBatch(effectBatch, together);
      for (const job of jobs) if (!this.halted && !together.some((t) => t.job === job)) await this.runOne(job.id);
      return;
    }
    if (batch) {
      for (const job of jobs) {
        let payload: unknown;
        try {
          payload = parseJobPayload(this.registry, type, job.payload);
        } catch {
          continue;
        }
        if (batch.canBatch(payload)) together.push({ job, payload });
      }
    }
    // A batch is written in slices of at most writeBatch jobs (on SQLite, as
    // many as fit the target hold): each slice's write transaction stays
    // short, whatever a claim brought.
    let alone = jobs;
    if (batch && together.length) {
      const failed = new Set<ClaimedJob>();
      const size = (t: { payload: unknown }) => Math.max(1, batch.size?.(t.payload) ?? 1);
      const learns = dbProvider() === "sqlite";
      for (let i = 0; i < together.length;) {
        // Nothing is learned on PostgreSQL (no lock to hold short): its slices are writeBatch.
        const room = learns ? sliceSize(this.msPerJob.get(type), this.writeBatch) : this.writeBatch;
        let end = i + 1;
        for (let units = size(together[i]!); end < together.length; end++) {
          units += size(together[end]!);
          if (units > room) break;
        }
        const slice = together.slice(i, end);
        i = end;
        if (
          this.halted ||
          !(await this.runBatch(
            batch,
            slice,
            slice.reduce((n, t) => n + size(t), 0),
          ))
        )
          for (const t of slice) failed.add(t.job);
      }
      alone = jobs.filter((j) => failed.has(j) || !together.some((t) => t.job === j));
    }
    const concurrency = this.registry[type]?.concurrency ?? 1;
    if (concurrency > 1) {
      const queue = [...alone];
      const lane = async () => {
        for (let job = queue.shift(); job && !this.halted; job = queue.shift()) await this.runOne(job.id);
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, lane));
      return;
    }
    for (const job of alone) {
      if (this.halted) break;
      await this.runOne(job.id);
    }
  }

  /**
   * Marks up to batchSize due jobs as running under a lease of this worker
   * and returns them, intake lane first, then oldest first: queued jobs whose
   * time has come, and running jobs whose lease ran out (their worker died).
   */
  private async claimDue(now: Date): Promise<ClaimedJob[]> {
    // The intake lane first. While intake jobs fill whole claims (a burst of
    // orders), everything else gets a fifth of a claim once per
    // REST_SHARE_EVERY_MS (oldest first, intake included when it is the
    // oldest): often enough that e-mails and events keep flowing under a
    // steady stream of orders, rarely enough that the work a burst's own
    // orders made does not slow the burst down (issue 33: a fifth of every
    // claim cost the orders bench most of its end-to-end rate), and no more
    // than REST_TIME_SHARE of the worker's time (runDue).
    const share = now.getTime() >= this.restShareAt;
    const intakeLimit = share ? Math.max(1, this.batchSize - Math.ceil(this.batchSize / 5)) : this.batchSize;
    const intake = this.intakeTypes.length ? await this.claim(now, intakeLimit, this.intakeTypes) : [];
    this.sharedWhileWaiting = false;
    if (!share && intake.length === this.batchSize) return intake;
    const rest = await this.claim(now, this.batchSize - intake.length, null);
    if (rest.some((job) => !this.intakeTypes.includes(job.type))) {
      this.restShareAt = now.getTime() + REST_SHARE_EVERY_MS;
      this.sharedWhileWaiting = intake.length === intakeLimit;
    }
    const byAge = (a: ClaimedJob, b: ClaimedJob) =>
      a.runAt.getTime() - b.runAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime();
    const lane = (job: ClaimedJob) => (this.intakeTypes.includes(job.type) ? 0 : 1);
    // runDue runs the types in the order they first appear: intake first.
    const claimed = [...intake, ...rest].sort((a, b) => lane(a) - lane(b) || byAge(a, b));
    const kept = claimed.filter((job) => lane(job) === 0);
    let units = kept.reduce((n, job) => n + this.sizeOf(job), 0);
    for (const [i, job] of claimed.slice(kept.length).entries()) {
      const size = this.sizeOf(job);
      if (i > 0 && units + size > this.batchSize) break;
      kept.push(job);
      units += size;
    }
    await this.release(claimed.slice(kept.length));
    return kept;
  }

  /**
   * How much of a claim a job takes: its items where its type sizes its jobs
   * (BatchJobHandler.size: an event.dispatch job carries a bulk write's
   * events), else 1. A claim holds batchSize items, not rows, so a round
   * stays about as long as a round of single jobs was, and an intake job
   * that arrives meanwhile waits no longer; the first job of the other types
   * always runs, so one larger than what is left of the claim is not starved.
   */
  private sizeOf(job: ClaimedJob) {
    const size = this.registry[job.type]?.batch?.size;
    if (!size) return 1;
    try {
      return Math.max(1, size(parseJobPayload(this.registry, job.type, job.payload)));
    } catch {
      return 1;
    }
  }

  /** Claimed jobs this round will not run, back in the queue as they were (their attempt not counted). */
  private async release(jobs: ClaimedJob[]) {
    if (jobs.length === 0) return;
    await getDb().job.updateMany({
      where: { id: { in: jobs.map((job) => job.id) }, status: "running" },
      data: { status: "queued", lockedBy: null, lockedUntil: null, attempts: { decrement: 1 } },
    });
  }

  /**
   * One claiming statement, so two workers never claim the same job: SQLite
   * runs it under its write lock; on PostgreSQL, SKIP LOCKED lets concurrent
   * workers take different rows instead of waiting on each other.
   */
  private async claim(now: Date, limit: number, types: string[] | null): Promise<ClaimedJob[]> {
    if (limit <= 0) return [];
    const pg = dbProvider() === "postgresql";
    const p = (n: number) => (pg ? `$${n}` : "?");
    const claim = `${this.id}:${randomBytes(4).toString("hex")}`;
    // Parameters in the order they appear: SQLite's are positional.
    const typeFilter = types ? ` AND "type" IN (${types.map((_, i) => p(6 + i)).join(", ")})` : "";
    const limitParam = p(6 + (types?.length ?? 0));
    return getDb().$queryRawUnsafe<ClaimedJob[]>(
      `UPDATE "Job" SET "status" = 'running', "lockedBy" = ${p(1)}, "lockedUntil" = ${p(2)}, "attempts" = "attempts" + 1, "updatedAt" = ${p(3)}
       WHERE "id" IN (
         SELECT "id" FROM "Job"
         WHERE (("status" = 'queued' AND "runAt" <= ${p(4)}) OR ("status" = 'running' AND "lockedUntil" < ${p(5)}))${typeFilter}
         ORDER BY "runAt" LIMIT ${limitParam}${pg ? " FOR UPDATE SKIP LOCKED" : ""}
       )
       RETURNING "id", "type", "payload", "attempts", "maxAttempts", "runAt", "createdAt"`,
      claim,
      new Date(Date.now() + this.leaseMs),
      new Date(),
      now,
      now,
      ...(types ?? []),
      limit,
    );
  }

  private async runBatch(
    batch: BatchJobHandler<unknown>,
    jobs: { job: ClaimedJob; payload: unknown }[],
    units: number,
  ) {
    const type = jobs[0]!.job.type;
    const payloads = jobs.map((j) => j.payload);
    const done = { status: "done", lockedUntil: null, lastError: null, updatedAt: new Date() };
    let failed: { job: ClaimedJob; message: string }[] = [];
    // The plan's writes, then the jobs' marks: set-aside members failed, the rest done.
    const planned = async (bulk: BulkSql, reader: Tx) => {
      const plan = await inReadStep(() => batch.plan(payloads, bulk, reader));
      const { write, rejected } = typeof plan === "function" ? { write: plan, rejected: [] } : plan;
      failed = rejected.map((r) => ({
        job: jobs[r.index]!.job,
        message: describeJobFailure(new InvalidPayloadError(r.message)).message,
      }));
      const doneIds = jobs.filter((j) => !failed.some((f) => f.job === j.job)).map((j) => j.job.id);
      return async (writer: BulkSql) => {
        await write(writer);
        await writer.updateIn("Job", done, {}, "id", doneIds);
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
            {},
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
        // Kept with the connection: each statement is prepared once, not per
        // batch (re-preparing them cost ~0.2 s of worker CPU per 5,000 orders).
        const bulk = (this.sqliteStatements ??= sqliteBulk(sqlite, this.busyGiveUpMs));
        const write = await planned(bulk, getDb());
        // Waits for the lock on a timer, never inside SQLite (sqlite-adapter.server.ts).
        await beginJobWrite(() => sqlite.exec("BEGIN IMMEDIATE"), this.busyGiveUpMs);
        const started = holdStart();
        bulk.takeStatementTimes();
        let commitMs = 0;
        try {
          await write(bulk);
          const committing = performance.now();
          sqlite.exec("COMMIT");
          commitMs = performance.now() - committing;
        } finally {
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
          const held = recordWriteLockHold(type, started);
          jobWriteDone(held);
          this.msPerJob.set(type, nextMsPerJob(this.msPerJob.get(type), held, units));
          const what = units === jobs.length ? `${jobs.length} jobs` : `${jobs.length} jobs, ${units} items`;
          explainLongHold(type, held, what, bulk.takeStatementTimes(), commitMs);
        }
      } else {
        // PostgreSQL: as on SQLite, the plan reads committed data outside
        // the transaction (it renders e-mails: a pooled connection held
        // across a render is one a request waits for), and the writes,
        // which check again what must hold, run in one short transaction.
        const provider = dbProvider();
        const write = await planned(prismaBulk(getDb(), provider), getDb());
        await getDb().$transaction((tx) => write(prismaBulk(tx, provider)), { timeout: 60_000 });
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

  private async runEffectBatch(handler: EffectBatchHandler<unknown>, jobs: { job: ClaimedJob; payload: unknown }[]) {
    // Kept with the connection: its statements are prepared once.
    const sqlite = this.sqliteConnection();
    const bulk = sqlite
      ? (this.sqliteStatements ??= sqliteBulk(sqlite, this.busyGiveUpMs))
      : prismaBulk(getDb(), dbProvider());
    let outcomes: unknown[];
    try {
      outcomes = await handler(
        jobs.map((j) => j.payload),
        bulk,
        jobs.map((j) => ({ id: j.job.id, attempts: j.job.attempts })),
      );
    } catch (error) {
      outcomes = jobs.map(() => error);
    }
    const doneIds = jobs.filter((_, i) => outcomes[i] === null).map((j) => j.job.id);
    await bulk.updateIn(
      "Job",
      { status: "done", lockedUntil: null, lastError: null, updatedAt: new Date() },
      {},
      "id",
      doneIds,
    );
    for (const [i, { job }] of jobs.entries()) {
      const outcome = outcomes[i];
      if (outcome !== null) await this.recordFailure(job, outcome ?? new Error("the batch handler gave no outcome"));
    }
  }

  private sqlite: Database.Database | null | undefined;
  private sqliteStatements: SqliteBulk | undefined;

  /** The worker's own SQLite connection (none on PostgreSQL). */
  private sqliteConnection() {
    if (this.sqlite !== undefined) return this.sqlite;
    const target = parseDatabaseUrl(getConfig().DATABASE_URL);
    if (target.provider !== "sqlite" || target.file === ":memory:") return (this.sqlite = null);
    // No busy timeout: it would sleep on this event loop (and, with
    // WORKERS=inline, the web process's); beginJobWrite and sqliteBulk
    // wait for the lock on a timer instead.
    const db = new Database(target.file, { timeout: 0 });
    db.pragma("journal_mode = WAL");
    // As the app's other connections (docs/decisions/007).
    db.pragma("synchronous = NORMAL");
    // Checkpoints run on the app's helper thread, not in this loop's commits.
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    return (this.sqlite = db);
  }

  private async runOne(id: string) {
    const db = getDb();
    const job = await db.job.findUniqueOrThrow({ where: { id } });
    const definition = this.registry[job.type];
    const info = { id: job.id, attempts: job.attempts };
    try {
      // Parsed before anything runs: a payload the handler cannot use fails
      // here, with the reason, instead of somewhere inside the handler.
      const payload = parseJobPayload(this.registry, job.type, job.payload);
      if (definition?.effect) {
        // Talks to the outside world: no transaction (and so no SQLite write
        // lock) is held while it waits on the network.
        await definition.effect(payload, db, info);
        await db.job.update({ where: { id }, data: { status: "done", lockedUntil: null, lastError: null } });
        return;
      }
      // A plan reads before the transaction; its write runs inside.
      const plan = definition?.plan;
      const write = plan ? await inReadStep(() => plan(payload, db, info)) : null;
      const run = definition?.plan ? (_: unknown, tx: Tx) => write?.(tx) : definition?.run;
      if (!run) throw new Error(`no handler for job type ${job.type}`);
      await db.$transaction(async (tx) => {
        // The lease again, as the transaction's first statement (the lock
        // is held from BEGIN IMMEDIATE on SQLite; PostgreSQL locks the row).
        await tx.job.update({ where: { id }, data: { lockedUntil: new Date(Date.now() + this.leaseMs) } });
        await run(payload, tx, info);
        await tx.job.update({ where: { id }, data: { status: "done", lockedUntil: null, lastError: null } });
      });
    } catch (error) {
      await this.recordFailure(job, error);
    }
  }

  private async recordFailure(job: Pick<ClaimedJob, "id" | "type" | "attempts" | "maxAttempts">, error: unknown) {
    // A payload that does not parse will not parse on a retry either: it
    // fails once, with one log line, instead of retrying with backoff.
    const { message, permanent } = describeJobFailure(error);
    const final = permanent || job.attempts >= job.maxAttempts;
    this.logger.error(
      permanent
        ? `[jobs] ${job.type} ${job.id} not processed: ${message}`
        : `[jobs] ${job.type} ${job.id} attempt ${job.attempts} failed${final ? " (giving up)" : ""}: ${message}`,
    );
    await getDb().job.update({
      where: { id: job.id },
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

/** Runs every due job until none is left (tests, the benchmark). */
export async function drainJobs(registry: JobRegistry, options: WorkerOptions = {}) {
  const worker = new JobWorker(registry, options);
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
