import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite";
import { PrismaClient as PostgresClient } from "./generated/postgresql";
import { parseDatabaseUrl } from "./database-url";

// Both generated clients expose the same API (they come from one schema); the
// SQLite one's type stands for both.
export type Db = SqliteClient;

export function createDb(databaseUrl: string): Db {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.provider === "postgresql") {
    const adapter = new PrismaPg({ connectionString: target.url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  // A writer waits up to 5 s for the lock instead of failing at once.
  const adapter = new PrismaBetterSQLite3({ url: target.file, timeout: 5000 });
  return new SqliteClient({ adapter });
}

export function databaseProvider(databaseUrl: string) {
  return parseDatabaseUrl(databaseUrl).provider;
}
