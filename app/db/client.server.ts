import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite";
import { PrismaClient as PostgresClient } from "./generated/postgresql";
import { parseDatabaseUrl } from "./database-url";

// Both generated clients expose the same API (they come from one schema); the
// SQLite one's type stands for both.
export type Db = SqliteClient;

export function createDb(databaseUrl: string, options: { poolSize?: number; logQueries?: boolean } = {}): Db {
  const target = parseDatabaseUrl(databaseUrl);
  // logQueries: every statement to stderr (DEBUG_QUERIES=1; counting a page's
  // statements when profiling it, tests/bench/page-profile.ts).
  const log = options.logQueries ? [{ level: "query" as const, emit: "event" as const }] : [];
  let client: Db;
  if (target.provider === "postgresql") {
    const adapter = new PrismaPg({ connectionString: target.url, max: options.poolSize ?? 10 });
    client = new PostgresClient({ adapter, log }) as unknown as Db;
  } else {
    // A writer waits up to 5 s for the lock instead of failing at once.
    const adapter = new PrismaBetterSQLite3({ url: target.file, timeout: 5000 });
    client = new SqliteClient({ adapter, log }) as Db;
    // In WAL mode, synchronous=NORMAL makes a commit durable against a crash of
    // the app (what "committed" must mean for a click or a webhook) without an
    // fsync per transaction; only an OS crash or power cut can lose the last
    // commits. The adapter runs every query on one connection, one at a time,
    // so this pragma is set before anything else runs on it.
    void client.$queryRawUnsafe("PRAGMA synchronous = NORMAL").catch(() => {});
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
