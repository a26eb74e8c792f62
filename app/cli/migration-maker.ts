// Makes a new SQL migration from the change between the database the
// existing migrations build and the Prisma schema now. There are no schema
// snapshots to diff from: the "before" is real. The existing migrations are
// applied, by the app's own migrator, to a scratch database (a temporary
// SQLite file, or a temporary PostgreSQL database); Prisma introspects it
// (`db pull`) and `migrate diff` turns the difference between that and the
// schema into SQL. Two branches that each add a migration therefore merge
// cleanly: the next migration is made from what both build, and neither
// branch's tables can be dropped by a diff against a stale snapshot.
//
// Prisma's `migrate diff --from-url` and `--from-schema-datasource` refuse
// to run with a driver adapter (the only way its engine runs offline), and
// `db pull` does not: hence introspection first, then a diff of two
// datamodels.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate, readMigrations } from "../db/migrate.server";
import { toPostgresSchema } from "../db/schema-variants";
import { offlinePrismaEnv, prismaBin, projectRoot } from "./prisma-env";

export type Provider = "sqlite" | "postgresql";

export const DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

interface Scratch {
  url: string;
  drop(): Promise<void>;
}

/** An empty database to build the "before" in: a temporary file, or a new database on the PostgreSQL server. */
async function scratchDatabase(provider: Provider, postgresUrl: string, workDir: string): Promise<Scratch> {
  if (provider === "sqlite") return { url: `file:${path.join(workDir, "before.sqlite")}`, drop: async () => {} };
  const name = `migrations_scratch_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

function prisma(args: string[], databaseUrl: string): string {
  return execFileSync(prismaBin, args, {
    // prisma.config.ts connects its driver adapter to this database.
    env: offlinePrismaEnv({ PRISMA_CONFIG_DATABASE_URL: databaseUrl, DATABASE_URL: "file:./unused.sqlite" }),
    cwd: projectRoot,
    timeout: 180_000,
    stdio: ["ignore", "pipe", "pipe"],
  }).toString();
}

/** The Prisma datamodel of a database, introspected from the database alone. */
function introspect(provider: Provider, databaseUrl: string, workDir: string): string {
  const bare = path.join(workDir, `bare-${provider}.prisma`);
  // `url` is required by the schema format; the adapter ignores it.
  writeFileSync(bare, `datasource db {\n  provider = "${provider}"\n  url      = "file:./unused.sqlite"\n}\n`);
  const printed = prisma(["db", "pull", "--print", "--schema", bare], databaseUrl);
  // The CLI prints a notice about the adapter before the schema itself.
  const start = printed.search(/^datasource\s/m);
  if (start < 0) throw new Error(`prisma db pull printed no schema:\n${printed}`);
  return printed.slice(start);
}

export interface SchemaDiffOptions {
  provider: Provider;
  /** The provider's migrations folder (its subfolders' migration.sql files apply in name order). */
  migrationsDir: string;
  /** The Prisma schema of this provider (the SQLite one is turned into the PostgreSQL variant). */
  sqliteSchema: string;
  /** A PostgreSQL server where a scratch database may be created (PostgreSQL only). */
  postgresUrl?: string;
}

/**
 * The SQL that brings the database the existing migrations build to the
 * schema; an empty string when they already agree.
 */
export async function pendingSchemaSql(options: SchemaDiffOptions): Promise<string> {
  const { provider } = options;
  const workDir = mkdtempSync(path.join(os.tmpdir(), "migration-maker-"));
  const scratch = await scratchDatabase(provider, options.postgresUrl ?? DEFAULT_POSTGRES_URL, workDir);
  try {
    const target = path.join(workDir, `target-${provider}.prisma`);
    writeFileSync(target, provider === "sqlite" ? options.sqliteSchema : toPostgresSchema(options.sqliteSchema));
    const existing = readMigrations(provider, options.migrationsDir);
    let from = ["--from-empty"];
    if (existing.length > 0) {
      await migrate(scratch.url, existing);
      const before = path.join(workDir, `before-${provider}.prisma`);
      writeFileSync(before, introspect(provider, scratch.url, workDir));
      from = ["--from-schema-datamodel", before];
    }
    const sql = prisma(["migrate", "diff", ...from, "--to-schema-datamodel", target, "--script"], scratch.url);
    return /^-- This is an empty migration\.\s*$/.test(sql.trim()) || sql.trim() === "" ? "" : sql;
  } finally {
    await scratch.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

export interface MakeMigrationOptions {
  name: string;
  sqliteSchema: string;
  migrationsDirs: Record<Provider, string>;
  providers?: Provider[];
  postgresUrl?: string;
  /** The folder name's time prefix (default: now, UTC, to the second). */
  stamp?: string;
}

/** Writes `<stamp>_<name>/migration.sql` for each provider whose database differs from the schema. */
export async function makeMigration(options: MakeMigrationOptions) {
  const stamp = options.stamp ?? new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const written: { provider: Provider; dir: string | null }[] = [];
  for (const provider of options.providers ?? (["sqlite", "postgresql"] as const)) {
    const dir = options.migrationsDirs[provider];
    const sql = await pendingSchemaSql({
      provider,
      migrationsDir: dir,
      sqliteSchema: options.sqliteSchema,
      postgresUrl: options.postgresUrl,
    });
    if (!sql) {
      written.push({ provider, dir: null });
      continue;
    }
    const out = path.join(dir, `${stamp}_${options.name}`);
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, "migration.sql"), sql);
    writeFileSync(path.join(dir, "migration_lock.toml"), `provider = "${provider}"\n`);
    written.push({ provider, dir: out });
  }
  return written;
}
