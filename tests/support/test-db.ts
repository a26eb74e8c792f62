import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { migrate, readMigrations } from "~/db/migrate.server";
import { parseDatabaseUrl } from "~/db/database-url";

// Each test file gets its own, freshly migrated database: a SQLite file in a
// temporary folder, or (TEST_DATABASE_URL=postgresql://...) a new PostgreSQL
// database created next to the one the URL names. Each test then starts from
// empty tables.
//
// Running every migration for every file cost ~0.2 s on SQLite and ~1.5 s on
// PostgreSQL per file (docs/decisions: test databases from a template). So
// the migrations run once per set of migrations into a template (a SQLite
// file, a PostgreSQL template database), and each file's database is a copy
// of it: the same tables and `_prisma_migrations` rows migrate() leaves.
// migrate() still runs on the copy (a no-op that checks the recorded
// checksums), so a template made from other migrations can never pass as ours.

export interface TestDatabase {
  url: string;
  provider: "sqlite" | "postgresql";
}

const TEST_DIR = path.join(os.tmpdir(), "affiliate-app-tests");

/** Names the set of migrations: a template is only reused for exactly these. */
function migrationsKey(provider: "sqlite" | "postgresql"): string {
  const hash = createHash("sha256");
  for (const m of readMigrations(provider)) hash.update(`${m.name}\0${m.checksum}\n`);
  return hash.digest("hex").slice(0, 16);
}

/** A migrated SQLite file to copy, made once per set of migrations. */
async function sqliteTemplate(): Promise<string> {
  const file = path.join(TEST_DIR, `template-${migrationsKey("sqlite")}.sqlite`);
  if (existsSync(file)) return file;
  mkdirSync(TEST_DIR, { recursive: true });
  // Built under a private name and renamed into place, so a run started at
  // the same time (another checkout on this machine) never copies half a file.
  const building = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    await migrate(`file:${building}`);
    renameSync(building, file);
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(building + suffix, { force: true });
  }
  return file;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A migrated PostgreSQL template database, made once per set of migrations. */
async function postgresTemplate(base: string): Promise<string> {
  const name = `t_template_${migrationsKey("postgresql")}`;
  const exists = await withClient(base, async (admin) => {
    const found = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    return found.rowCount === 1;
  });
  if (exists) return name;
  // Migrated under a private name, then renamed: a database being migrated
  // (or one a concurrent run is still building) is never used as a template.
  const building = `t_building_${randomBytes(6).toString("hex")}`;
  await withClient(base, (admin) => admin.query(`CREATE DATABASE "${building}"`));
  try {
    const url = new URL(base);
    url.pathname = `/${building}`;
    await migrate(url.toString());
    await withClient(base, async (admin) => {
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      // No session may be connected to a template while it is copied; a
      // template that takes no connections cannot make a copy fail.
      await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    });
  } catch (error) {
    await withClient(base, (admin) => admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`));
    // A concurrent run renamed its template into place first: use that one.
    if (!String((error as Error).message).includes("already exists")) throw error;
  }
  return name;
}

type CreatedDatabase = { db: TestDatabase; drop: () => Promise<void> };

/** A new, empty database (no tables): for tests of the migrations themselves. */
export function createDatabase(): Promise<CreatedDatabase> {
  return newDatabase({ migrated: false });
}

/** A new database with every migration applied, copied from the template. */
export function createMigratedDatabase(): Promise<CreatedDatabase> {
  return newDatabase({ migrated: true });
}

async function newDatabase({ migrated }: { migrated: boolean }): Promise<CreatedDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  if (base && parseDatabaseUrl(base).provider === "postgresql") {
    const template = migrated ? ` TEMPLATE "${await postgresTemplate(base)}"` : "";
    await withClient(base, (admin) => admin.query(`CREATE DATABASE "${name}"${template}`));
    const url = new URL(base);
    url.pathname = `/${name}`;
    return {
      db: { url: url.toString(), provider: "postgresql" },
      drop: async () => {
        await withClient(base, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      },
    };
  }
  const dir = path.join(TEST_DIR, name);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "test.sqlite");
  if (migrated) copyFileSync(await sqliteTemplate(), file);
  return {
    db: { url: `file:${file}`, provider: "sqlite" },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const KEEP = new Set(["_prisma_migrations"]);

/** Cleared when the test role may not set session_replication_role. */
let replicaRoleAllowed = true;

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
    // DELETE, not TRUNCATE: a TRUNCATE of every table makes new files for
    // each and syncs them (about 2 s a test with fsync on, most of the
    // PostgreSQL db run), while deleting the few rows a test left is
    // milliseconds. With session_replication_role = replica no foreign key
    // fires, so the order of the tables does not matter; it is local to this
    // one statement's transaction. Roles that may not set it (not a
    // superuser) fall back to TRUNCATE.
    const deletes = tables.map((t) => `DELETE FROM "${t}";`).join(" ");
    const wipe = replicaRoleAllowed
      ? `DO $$ BEGIN PERFORM set_config('session_replication_role', 'replica', true); ${deletes} END $$`
      : `TRUNCATE ${tables.map((t) => `"${t}"`).join(", ")} CASCADE`;
    // Work the previous test set going in the background (a job the test
    // server's worker is finishing) can hold row locks the wipe waits for;
    // PostgreSQL then ends one side as a deadlock. Wait and try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.$executeRawUnsafe(wipe);
        return;
      } catch (error) {
        const message = String((error as Error).message);
        if (replicaRoleAllowed && message.includes("session_replication_role")) {
          replicaRoleAllowed = false;
          return truncateAll(db);
        }
        if (attempt >= 5 || !message.includes("40P01")) throw error;
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
  let created: CreatedDatabase | undefined;
  beforeAll(async () => {
    created = await createMigratedDatabase();
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
