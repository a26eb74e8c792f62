import { getConfig } from "./config.server";
import { createDb, type Db } from "./db/client.server";
import { parseDatabaseUrl } from "./db/database-url";

export type { Db };

// One client per process. Kept on globalThis so a rebuilt server bundle in
// development reuses the open connection.
const globalForDb = globalThis as unknown as { __appDb?: Db };

export function getDb(): Db {
  if (!globalForDb.__appDb) {
    const config = getConfig();
    globalForDb.__appDb = createDb(config.DATABASE_URL, {
      poolSize: config.DATABASE_POOL_SIZE,
      waitMs: config.DATABASE_WAIT_MS,
      strictReads: config.NODE_ENV === "test",
      logQueries: config.DEBUG_QUERIES === "1",
    });
  }
  return globalForDb.__appDb;
}

export async function disconnectDb() {
  const db = globalForDb.__appDb;
  globalForDb.__appDb = undefined;
  await db?.$disconnect();
}

/** Which database the app's client talks to (for the few raw SQL statements). */
export function dbProvider(): "sqlite" | "postgresql" {
  return parseDatabaseUrl(getConfig().DATABASE_URL).provider;
}
