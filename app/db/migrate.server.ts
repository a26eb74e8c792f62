// Applies the SQL migrations under prisma/ without Prisma's schema engine
// (which cannot be downloaded offline, and whose `migrate deploy` fails on
// PostgreSQL through a driver adapter). Applied migrations are recorded in
// `_prisma_migrations` the way Prisma records them, so `prisma migrate status`
// stays truthful wherever the engine exists.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { parseDatabaseUrl, type DatabaseTarget } from "./database-url";

const ROOT = path.resolve(
  __dirname.includes(`${path.sep}build`) ? path.join(__dirname, "..") : path.join(__dirname, "../.."),
);

export function migrationsDir(provider: "sqlite" | "postgresql"): string {
  return provider === "sqlite" ? path.join(ROOT, "prisma/migrations") : path.join(ROOT, "prisma/postgresql/migrations");
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** The migrations of a provider, in the order they apply (from the app's folder, or `dir`). */
export function readMigrations(provider: "sqlite" | "postgresql", dir = migrationsDir(provider)): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, "migration.sql")))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

/** Applies the pending migrations (all of them, or the given ones: tests). */
export async function migrate(databaseUrl: string, only?: Migration[]): Promise<MigrateResult> {
  const target = parseDatabaseUrl(databaseUrl);
  return target.provider === "sqlite" ? migrateSqlite(target, only) : migratePostgres(target, only);
}

function checkRecorded(recorded: Map<string, string>, migrations: Migration[]) {
  for (const m of migrations) {
    const sum = recorded.get(m.name);
    if (sum && sum !== m.checksum) {
      throw new Error(
        `Migration ${m.name} was changed after it was applied (checksum mismatch). Add a new migration instead of editing an applied one.`,
      );
    }
  }
}

function migrateSqlite(target: Extract<DatabaseTarget, { provider: "sqlite" }>, only?: Migration[]): MigrateResult {
  const db = new Database(target.file);
  try {
    // WAL lets readers run while a writer commits; it is a property of the file.
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL,
      "checksum" TEXT NOT NULL,
      "finished_at" DATETIME,
      "migration_name" TEXT NOT NULL,
      "logs" TEXT,
      "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
    )`);
    const migrations = only ?? readMigrations("sqlite");
    const applied: string[] = [];
    // SQLite changes a table by copying it into a new one and dropping the
    // old: with foreign keys on, that DROP would cascade and delete every row
    // that refers to the table. The pragma only works outside a transaction,
    // so it is switched off here, and the references are checked before the
    // transaction commits.
    db.pragma("foreign_keys = OFF");
    // IMMEDIATE takes the write lock up front, so two processes starting at
    // once cannot both apply the same migration.
    const run = db.transaction(() => {
      const rows = db
        .prepare(
          `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
        )
        .all() as { migration_name: string; checksum: string }[];
      const recorded = new Map(rows.map((r) => [r.migration_name, r.checksum]));
      checkRecorded(recorded, migrations);
      for (const m of migrations) {
        if (recorded.has(m.name)) continue;
        const startedAt = new Date().toISOString();
        db.exec(m.sql);
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(randomUUID(), m.checksum, new Date().toISOString(), m.name, startedAt);
        applied.push(m.name);
      }
      const broken = db.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0)
        throw new Error(`Migration left ${broken.length} broken foreign key reference(s); nothing was applied.`);
      return recorded.size;
    });
    const alreadyApplied = run.immediate();
    db.pragma("foreign_keys = ON");
    return { applied, alreadyApplied };
  } finally {
    db.close();
  }
}

// Same lock id Prisma's own migrate uses, so a concurrent `prisma migrate`
// and this migrator never interleave.
const PG_ADVISORY_LOCK = 72707369;

async function migratePostgres(
  target: Extract<DatabaseTarget, { provider: "postgresql" }>,
  only?: Migration[],
): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PG_ADVISORY_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
    );
    const recorded = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const migrations = only ?? readMigrations("postgresql");
    checkRecorded(recorded, migrations);
    const applied: string[] = [];
    for (const m of migrations) {
      if (recorded.has(m.name)) continue;
      // PostgreSQL DDL is transactional: a failing migration leaves nothing behind.
      await client.query("BEGIN");
      try {
        const startedAt = new Date();
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, $4, 1)`,
          [randomUUID(), m.checksum, m.name, startedAt],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      applied.push(m.name);
    }
    return { applied, alreadyApplied: recorded.size };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PG_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}
