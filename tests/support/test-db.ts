import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { migrate } from "~/db/migrate.server";
import { parseDatabaseUrl } from "~/db/database-url";

// Each test file gets its own, freshly migrated database: a SQLite file in a
// temporary folder, or (TEST_DATABASE_URL=postgresql://...) a new PostgreSQL
// database created next to the one the URL names. Each test then starts from
// empty tables.

export interface TestDatabase {
  url: string;
  provider: "sqlite" | "postgresql";
}

export async function createDatabase(): Promise<{ db: TestDatabase; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  if (base && parseDatabaseUrl(base).provider === "postgresql") {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    return {
      db: { url: url.toString(), provider: "postgresql" },
      drop: async () => {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = path.join(os.tmpdir(), "affiliate-app-tests", name);
  mkdirSync(dir, { recursive: true });
  return {
    db: { url: `file:${path.join(dir, "test.sqlite")}`, provider: "sqlite" },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const KEEP = new Set(["_prisma_migrations"]);

/**
 * Deletes every row of every app table, through the app's own client so the
 * app's connection sees the empty tables at once.
 */
export async function truncateAll(db: TestDatabase) {
  const { getDb } = await import("~/db.server");
  const client = getDb();
  if (db.provider === "postgresql") {
    const rows = await client.$queryRawUnsafe<{ tablename: string }[]>(
      `SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = current_schema()`,
    );
    const tables = rows.map((r) => r.tablename).filter((t) => !KEEP.has(t));
    if (!tables.length) return;
    // Work the previous test set going in the background (a job the test
    // server's worker is finishing) can hold row locks the TRUNCATE waits
    // for; PostgreSQL then ends one side as a deadlock. Wait and try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t}"`).join(", ")} CASCADE`);
        return;
      } catch (error) {
        if (attempt >= 5 || !String((error as Error).message).includes("40P01")) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }
  const rows = await client.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'`,
  );
  await client.$executeRawUnsafe("PRAGMA foreign_keys = OFF");
  for (const { name } of rows) if (!KEEP.has(name)) await client.$executeRawUnsafe(`DELETE FROM "${name}"`);
  await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
}

/**
 * Registers hooks that give this test file a migrated database (set as
 * DATABASE_URL before anything connects) and empty tables for each test.
 */
export function useTestDatabase(): { current: () => TestDatabase } {
  let created: Awaited<ReturnType<typeof createDatabase>> | undefined;
  beforeAll(async () => {
    created = await createDatabase();
    process.env.DATABASE_URL = created.db.url;
    await migrate(created.db.url);
  });
  beforeEach(async () => {
    if (created) await truncateAll(created.db);
  });
  afterAll(async () => {
    const { disconnectDb } = await import("~/db.server");
    await disconnectDb();
    await created?.drop();
  });
  return {
    current: () => {
      if (!created) throw new Error("test database not ready");
      return created.db;
    },
  };
}
