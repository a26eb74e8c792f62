import { PrismaPg } from "@prisma/adapter-pg";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { PrismaClient as SqliteClient } from "./generated/sqlite";
import { PrismaClient as PostgresClient } from "./generated/postgresql";
import { parseDatabaseUrl } from "./database-url";
import { queuedSqliteAdapter } from "./sqlite-adapter.server";
import { checkWriteOnRead } from "./write-on-read";
import { currentWaits, timeQuery } from "./db-context";

// Both generated clients expose the same API (they come from one schema); the
// SQLite one's type stands for both.
export type Db = SqliteClient;

export interface DbOptions {
  /** PostgreSQL connections this process keeps (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /**
   * How long a query waits for the database (SQLite's write lock, a pooled
   * PostgreSQL connection) before it fails as busy; the door answers that 503
   * with Retry-After (DATABASE_WAIT_MS).
   */
  waitMs?: number;
  logQueries?: boolean;
  /** A write during a GET request throws instead of only being logged (tests; write-on-read.ts). */
  strictReads?: boolean;
}

export const DEFAULT_WAIT_MS = 4000;

/** Every statement of a PostgreSQL adapter past the GET-write check (write-on-read.ts). */
function observedPg(factory: SqlDriverAdapterFactory, strict: boolean): SqlDriverAdapterFactory {
  const watch = <T extends { queryRaw(q: SqlQuery): Promise<unknown>; executeRaw(q: SqlQuery): Promise<number> }>(
    target: T,
  ): T => {
    const queryRaw = target.queryRaw.bind(target);
    const executeRaw = target.executeRaw.bind(target);
    // A statement's time includes waiting for a pooled connection.
    target.queryRaw = (q: SqlQuery) => {
      checkWriteOnRead(q.sql, strict);
      const waits = currentWaits();
      return waits ? timeQuery(waits, () => queryRaw(q)) : queryRaw(q);
    };
    target.executeRaw = (q: SqlQuery) => {
      checkWriteOnRead(q.sql, strict);
      const waits = currentWaits();
      return waits ? timeQuery(waits, () => executeRaw(q)) : executeRaw(q);
    };
    return target;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const adapter = watch(await factory.connect());
      const start = adapter.startTransaction.bind(adapter);
      // Starting one waits for a pooled connection: counted as the transaction queue.
      adapter.startTransaction = async (level?: IsolationLevel): Promise<Transaction> => {
        const asked = performance.now();
        const transaction = await start(level);
        const waits = currentWaits();
        if (waits) waits.txQueueMs += performance.now() - asked;
        return watch(transaction);
      };
      return adapter;
    },
  };
}

export function createDb(databaseUrl: string, options: DbOptions = {}): Db {
  const target = parseDatabaseUrl(databaseUrl);
  // logQueries: every statement to stderr (DEBUG_QUERIES=1; counting a page's
  // statements when profiling it, tests/bench/page-profile.ts).
  const log = options.logQueries ? [{ level: "query" as const, emit: "event" as const }] : [];
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const strict = options.strictReads ?? false;
  // Waiting to start a transaction is bounded by the adapter (the lock, the
  // pool); Prisma's own bound (2 s by default) would cut it short.
  const transactionOptions = { maxWait: waitMs + 1000, timeout: 5000 };
  let client: Db;
  if (target.provider === "postgresql") {
    const adapter = new PrismaPg({
      connectionString: target.url,
      max: options.poolSize ?? 10,
      // A request that cannot get a connection in time fails as busy (503), not after minutes.
      connectionTimeoutMillis: waitMs,
    });
    client = new PostgresClient({
      adapter: observedPg(adapter, strict),
      log,
      transactionOptions,
    }) as unknown as Db;
  } else {
    const adapter = queuedSqliteAdapter(target.file, { busyGiveUpMs: waitMs, strictReads: strict });
    client = new SqliteClient({ adapter, log, transactionOptions }) as Db;
  }
  if (options.logQueries)
    (client.$on as (event: "query", cb: (e: { query: string }) => void) => void)("query", (e) =>
      process.stderr.write(`query: ${e.query}\n`),
    );
  return client;
}

export function databaseProvider(databaseUrl: string) {
  return parseDatabaseUrl(databaseUrl).provider;
}

/**
 * The database could not serve in time: SQLite's write lock stayed taken
 * (DatabaseBusyError), or no PostgreSQL connection or transaction could be
 * had (pool timeout; Prisma's P2024, P2028 and P1008). A request answers 503
 * with Retry-After; nothing was changed.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const e = error as { name?: string; code?: string; message?: string; cause?: unknown };
  if (e.name === "DatabaseBusyError") return true;
  if (e.code === "P2024" || e.code === "P2028" || e.code === "P1008") {
    return e.code !== "P2028" || /unable to start a transaction in the given time/i.test(e.message ?? "");
  }
  if (/timeout exceeded when trying to connect|the database stayed locked/i.test(e.message ?? "")) return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseBusy(e.cause);
}

/**
 * PostgreSQL ended this transaction to let a concurrent one go on: a
 * deadlock (40P01) or a serialization failure (40001), which Prisma reports
 * as P2034 or as the driver's error. The transaction was rolled back: it
 * changed nothing and lost a race, so a request answers 409 and may try again.
 */
export function isWriteConflict(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const e = error as { code?: string; message?: string; cause?: unknown; meta?: { code?: string } };
  if (e.code === "P2034" || e.code === "40P01" || e.code === "40001") return true;
  if (e.meta?.code === "40P01" || e.meta?.code === "40001") return true;
  if (/deadlock detected|could not serialize access/i.test(e.message ?? "")) return true;
  return e.cause !== undefined && e.cause !== error && isWriteConflict(e.cause);
}
