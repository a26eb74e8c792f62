import { setTimeout as sleep } from "node:timers/promises";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { currentDbContext, currentWaits, isWriteStatement, onlyReads, timeQuery } from "./db-context";
import {
  dropHold,
  explainingLongHolds,
  explainLongHold,
  holdStart,
  recordWriteLockHold,
  statementLabel,
} from "./write-lock-stats";
import { checkWriteOnRead } from "./write-on-read";
import { joinCheckpointer, WAL_AUTOCHECKPOINT_PAGES } from "./sqlite-checkpointer.server";
import { cacheStatements } from "./sqlite-statement-cache.server";

// Prisma's SQLite adapter, with SQLite's one write lock taken the way a web
// process can live with (docs/decisions/035):
//
// - Nothing waits for the lock inside SQLite. better-sqlite3 is synchronous,
//   so its busy timeout sleeps on the event loop: one request waiting for
//   the job worker's transaction stalled every other request of the process.
//   Here the busy timeout is 0 and a statement or BEGIN that finds the lock
//   taken is tried again on a timer (retryWhileBusy), which is always safe:
//   a statement refused with SQLITE_BUSY changed nothing.
// - Transactions begin IMMEDIATE. Prisma's adapter says BEGIN (deferred): a
//   transaction that read first and then wrote failed at once with
//   SQLITE_BUSY ("database is locked") whenever another connection had
//   committed since its read, and no busy timeout helps there.
// - Transactions get a connection of their own, one at a time per process;
//   statements outside a transaction use a second connection. The adapter ran
//   both on one connection and only transactions waited for each other, so a
//   concurrent request's statement ran inside another request's transaction
//   (and was rolled back with it).
// - A GET's transactions (Prisma starts some on its own for reads), and a
//   job's plan step's, begin deferred on a third connection: they read a
//   snapshot without taking the write lock, so a page never waits for the
//   job worker's writes, and a plan's reads never hold up anyone's.
// - Each connection keeps its prepared statements (sqlite-statement-cache).
// - Every write transaction's hold of the lock is timed per job type
//   (write-lock-stats.ts), and a write during a GET is reported
//   (write-on-read.ts).

const isBusy = (error: unknown) => {
  const e = error as { code?: unknown; cause?: { originalCode?: unknown }; originalCode?: unknown } | null;
  const code = String(e?.code ?? e?.originalCode ?? e?.cause?.originalCode ?? "");
  return /^SQLITE_(BUSY|LOCKED)/.test(code);
};

/** The lock stayed taken past the wait a caller allows: the request answers 503 (door), a job retries. */
export class DatabaseBusyError extends Error {
  /** asksToRetryLater: nothing was written. */
  readonly retryLater = true;
  constructor(waitedMs: number) {
    super(`the database stayed locked for ${waitedMs} ms`);
    this.name = "DatabaseBusyError";
  }
}

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY, waiting on a timer
 * between tries (1 ms at first, up to 5 ms), for up to `giveUpMs`; then
 * throws DatabaseBusyError. The event loop is never blocked.
 */
export async function retryWhileBusy<T>(attempt: () => T | Promise<T>, giveUpMs: number): Promise<T> {
  const start = Date.now();
  let tries = 0;
  try {
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (!isBusy(error)) throw error;
        tries++;
        const waited = Date.now() - start;
        if (waited >= giveUpMs) throw new DatabaseBusyError(waited);
        await sleep(Math.min(5, 1 + Math.floor(waited / 100)));
      }
    }
  } finally {
    const waits = tries > 0 ? currentWaits() : undefined;
    if (waits) {
      waits.lockTries += tries;
      waits.lockWaitMs += Date.now() - start;
    }
  }
}

// SQLite's lock is not fair: whoever asks at the moment it is free gets it.
// A worker that begins its next transaction right after a commit takes it
// again before the web process's writers (which ask on a timer) see it
// free, round after round: in the load bench clicks and admin writes waited
// seconds behind a worker whose every hold was short. So a job's write
// transaction waits MIN_GAP_MS after the previous one's end, time for a
// writer retrying on its timer (1 ms at first) to get in. Once one has (the
// job's BEGIN found the lock taken), others are waiting on the lock: for
// CONTENDED_MS the gap is as long as the previous hold, so the worker holds
// the lock at most half of the time and a waiting request gets in within one
// hold. With nobody waiting, the worker is not held to half of the time: in
// a burst of orders that cost it a third of its time asleep (ADR 063).
// Requests do not wait: they are the ones the gaps are for.
const MIN_GAP_MS = 2;
const CONTENDED_MS = 100;
const pacing = ((
  globalThis as unknown as { __sqliteJobPacing?: { readyAt: number; contendedUntil: number } }
).__sqliteJobPacing ??= {
  readyAt: 0,
  contendedUntil: 0,
});

/**
 * A job's write transaction: waits for its turn (see above), then BEGIN
 * IMMEDIATE through `begin`, on a timer while the lock is taken. Outside
 * jobs, BEGIN only.
 */
export async function beginJobWrite(begin: () => unknown, giveUpMs: number) {
  if (!currentDbContext()?.job) return retryWhileBusy(begin, giveUpMs);
  const wait = pacing.readyAt - performance.now();
  if (wait > 0) await sleep(Math.ceil(wait));
  let tries = 0;
  await retryWhileBusy(() => {
    tries++;
    return begin();
  }, giveUpMs);
  // Someone else wrote in our gap (a request, the webhook writer): others are
  // waiting on the lock, so the gaps stay as long as our holds for a while.
  if (tries > 1) pacing.contendedUntil = performance.now() + CONTENDED_MS;
}

/**
 * After a job's write transaction: while others wait on the lock, the next
 * one waits as long as this one held it; with nobody seen waiting, a short
 * gap, enough for a newcomer retrying on its timer to get in (it then makes
 * the gaps long again).
 */
export function jobWriteDone(holdMs: number) {
  if (!currentDbContext()?.job) return;
  const now = performance.now();
  pacing.readyAt = now + writeGapMs(holdMs, lockContended(now));
}

/** Whether a job's BEGIN found the lock taken in the last CONTENDED_MS. */
export function lockContended(now = performance.now()) {
  return now < pacing.contendedUntil;
}

/** How long a job's next write transaction would now wait for its turn. */
export function jobWriteWaitMs(now = performance.now()) {
  return Math.max(0, pacing.readyAt - now);
}

/** The pause before a job's next write transaction (see jobWriteDone). */
export function writeGapMs(holdMs: number, contended: boolean) {
  return contended ? Math.max(MIN_GAP_MS, holdMs) : MIN_GAP_MS;
}

type InnerAdapter = SqlDriverAdapter & { client: BetterSqlite3.Database };

function holdKind() {
  return currentDbContext()?.job ?? "request";
}

/** A queue of one: the transaction connection serves one transaction at a time. */
class Gate {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

class SqliteTransaction implements Transaction {
  readonly provider = "sqlite" as const;
  readonly adapterName: string;
  readonly options = { usePhantomQuery: false };
  private done = false;

  constructor(
    private readonly inner: InnerAdapter,
    private readonly finish: () => void,
    private readonly strictReads: boolean,
  ) {
    this.adapterName = inner.adapterName;
  }

  /** Time per statement kind in this transaction, for the account of a long hold. */
  readonly times = new Map<string, number>();

  private async timed<T>(sql: string, call: () => Promise<T>): Promise<T> {
    checkWriteOnRead(sql, this.strictReads);
    const waits = currentWaits();
    const run = () => (waits ? timeQuery(waits, call) : call());
    // Kept only where long holds are explained (a worker of its own), not on every request's transaction.
    if (!explainingLongHolds()) return run();
    const start = performance.now();
    try {
      return await run();
    } finally {
      const label = statementLabel(sql);
      this.times.set(label, (this.times.get(label) ?? 0) + performance.now() - start);
    }
  }

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.timed(query.sql, () => this.inner.queryRaw(query));
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.timed(query.sql, () => this.inner.executeRaw(query));
  }

  private close() {
    if (this.done) return;
    this.done = true;
    this.finish();
  }

  commit() {
    this.close();
    return Promise.resolve();
  }

  rollback() {
    // Prisma sends ROLLBACK first; a transaction it gave up on mid-way is
    // rolled back here too, so the connection is never left inside one.
    if (this.inner.client.inTransaction) this.inner.client.exec("ROLLBACK");
    this.close();
    return Promise.resolve();
  }
}

class QueuedSqliteAdapter implements SqlDriverAdapter {
  readonly provider = "sqlite" as const;
  readonly adapterName: string;
  private readonly gate = new Gate();
  private readonly readGate = new Gate();

  constructor(
    private readonly auto: InnerAdapter,
    private readonly tx: InnerAdapter,
    /** Read-only transactions of GET requests (see startReadTransaction). */
    private readonly reads: InnerAdapter,
    private readonly giveUpMs: number,
    private readonly strictReads: boolean,
  ) {
    this.adapterName = auto.adapterName;
  }

  private async run<T>(sql: string, call: () => Promise<T>): Promise<T> {
    checkWriteOnRead(sql, this.strictReads);
    const waits = currentWaits();
    const timed = waits ? () => timeQuery(waits, call) : call;
    if (!isWriteStatement(sql)) return retryWhileBusy(timed, this.giveUpMs);
    return retryWhileBusy(async () => {
      const start = holdStart();
      let result: T;
      try {
        result = await timed();
      } catch (error) {
        dropHold(start);
        throw error;
      }
      recordWriteLockHold(holdKind(), start);
      return result;
    }, this.giveUpMs);
  }

  queryRaw(query: SqlQuery) {
    return this.run(query.sql, () => this.auto.queryRaw(query));
  }

  executeRaw(query: SqlQuery) {
    return this.run(query.sql, () => this.auto.executeRaw(query));
  }

  executeScript(script: string) {
    return retryWhileBusy(() => this.auto.executeScript(script), this.giveUpMs);
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    if (isolationLevel && isolationLevel !== "SERIALIZABLE") {
      // What Prisma's adapter answers: SQLite's transactions are serializable.
      return this.tx.startTransaction(isolationLevel);
    }
    if (onlyReads(currentDbContext())) return this.startReadTransaction();
    const asked = performance.now();
    const release = await this.gate.acquire();
    const waits = currentWaits();
    if (waits) waits.txQueueMs += performance.now() - asked;
    try {
      await beginJobWrite(() => this.tx.client.exec("BEGIN IMMEDIATE"), this.giveUpMs);
    } catch (error) {
      release();
      throw error;
    }
    const started = holdStart();
    const kind = holdKind();
    const transaction: SqliteTransaction = new SqliteTransaction(
      this.tx,
      () => {
        const held = recordWriteLockHold(kind, started);
        jobWriteDone(held);
        release();
        // Prisma has sent COMMIT (or ROLLBACK) as a statement: it is in the times.
        explainLongHold(kind, held, "one transaction", [...transaction.times]);
      },
      this.strictReads,
    );
    return transaction;
  }

  /**
   * A GET's transaction, or a job plan step's. Prisma starts some on its
   * own: a batch of queries made in one tick, or a query plan that loads
   * relations. With BEGIN IMMEDIATE they took the write lock for reads, so
   * a page waited for the job worker's writes (and the worker for the page).
   * A GET never writes (write-on-read.ts; a GET that must, such as Shopify's
   * install, says so with writeOnRead and gets the write lock), nor does a
   * plan step (its write runs after, in the job's transaction), so a
   * deferred BEGIN on a connection of its own reads one snapshot without
   * taking the lock.
   */
  private async startReadTransaction(): Promise<Transaction> {
    const asked = performance.now();
    const release = await this.readGate.acquire();
    const waits = currentWaits();
    if (waits) waits.txQueueMs += performance.now() - asked;
    try {
      this.reads.client.exec("BEGIN DEFERRED");
    } catch (error) {
      release();
      throw error;
    }
    return new SqliteTransaction(this.reads, release, this.strictReads);
  }

  /** Set by the factory: this connection's use of the file's checkpointer. */
  releaseCheckpointer: () => Promise<void> = async () => {};

  async dispose() {
    await this.auto.dispose();
    await this.tx.dispose();
    await this.reads.dispose();
    await this.releaseCheckpointer();
  }
}

export interface SqliteAdapterOptions {
  /** How long a statement or transaction waits for the write lock before DatabaseBusyError. */
  busyGiveUpMs: number;
  /** A write during a GET throws (tests) instead of only being logged (write-on-read.ts). */
  strictReads: boolean;
}

/** The driver adapter factory for a SQLite file (see the top of this file). */
export function queuedSqliteAdapter(file: string, options: SqliteAdapterOptions): SqlDriverAdapterFactory {
  const factory = new PrismaBetterSQLite3({ url: file, timeout: 0 });
  const open = async () => {
    const inner = (await factory.connect()) as InnerAdapter;
    // In WAL mode, synchronous=NORMAL makes a commit durable against a crash
    // of the app (what "committed" must mean for a click or a webhook)
    // without an fsync per transaction; only an OS crash or power cut can
    // lose the last commits (docs/decisions/007).
    inner.client.pragma("synchronous = NORMAL");
    // Checkpoints run on the file's helper thread (sqlite-checkpointer.server.ts).
    inner.client.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    // Prepared statements kept per connection (Prisma's adapter prepares each query anew).
    cacheStatements(inner.client);
    return inner;
  };
  return {
    provider: "sqlite",
    adapterName: factory.adapterName,
    async connect() {
      const adapter = new QueuedSqliteAdapter(
        await open(),
        await open(),
        await open(),
        options.busyGiveUpMs,
        options.strictReads,
      );
      adapter.releaseCheckpointer = joinCheckpointer(file);
      return adapter;
    },
  };
}
