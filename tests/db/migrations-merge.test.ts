import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeMigration, pendingSchemaSql, type Provider } from "~/cli/migration-maker";
import { sqliteSchemaPath } from "~/cli/prisma-env";
import { parseDatabaseUrl } from "~/db/database-url";
import { migrate, migrationsDir, readMigrations } from "~/db/migrate.server";
import { describeDatabase } from "../support/schema-catalog";
import { createDatabase } from "../support/test-db";

// New migrations are made from the database the existing ones build (no
// schema snapshots), so two branches that each add a migration merge without
// either dropping the other's tables. This simulates it: branches A and B
// start from the same migrations, each adds a model and makes its migration
// with the real generator (Prisma's own diff); then both land, the merged
// migrations are applied in order to a fresh database, and the merged schema
// needs no further migration. SQLite, or PostgreSQL with TEST_DATABASE_URL.
const serverUrl = process.env.TEST_DATABASE_URL;
const provider: Provider = serverUrl && parseDatabaseUrl(serverUrl).provider === "postgresql" ? "postgresql" : "sqlite";
const postgresUrl = provider === "postgresql" ? serverUrl : undefined;

const work = mkdtempSync(path.join(os.tmpdir(), "migrations-merge-"));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  rmSync(work, { recursive: true, force: true });
});

const base = readFileSync(sqliteSchemaPath, "utf8");
const model = (name: string) => `
model ${name} {
  id        String   @id @default(cuid())
  shopId    String
  label     String
  createdAt DateTime @default(now())

  @@index([shopId])
}
`;

function branch(name: string) {
  const dir = path.join(work, name);
  cpSync(migrationsDir(provider), dir, { recursive: true });
  return dir;
}

const newFolders = (dir: string) => readdirSync(dir).filter((d) => d.startsWith("2999"));

describe("migrations made on two branches", () => {
  it("merge without either dropping the other's tables", { timeout: 300_000 }, async () => {
    const a = branch("a");
    const b = branch("b");
    const [madeA] = await makeMigration({
      name: "branch_a_notes",
      sqliteSchema: base + model("BranchANote"),
      migrationsDirs: { sqlite: a, postgresql: a },
      providers: [provider],
      postgresUrl,
      stamp: "29990101000001",
    });
    // Branch B starts from the same migrations and knows nothing of A.
    const [madeB] = await makeMigration({
      name: "branch_b_tags",
      sqliteSchema: base + model("BranchBTag"),
      migrationsDirs: { sqlite: b, postgresql: b },
      providers: [provider],
      postgresUrl,
      stamp: "29990101000002",
    });
    const sqlA = readFileSync(path.join(madeA!.dir!, "migration.sql"), "utf8");
    const sqlB = readFileSync(path.join(madeB!.dir!, "migration.sql"), "utf8");
    expect(sqlA).toMatch(/CREATE TABLE "BranchANote"/);
    expect(sqlB).toMatch(/CREATE TABLE "BranchBTag"/);
    // Each migration is only its own change.
    for (const sql of [sqlA, sqlB]) expect(sql).not.toMatch(/DROP|ALTER TABLE|RedefineTables/i);
    expect(sqlB).not.toMatch(/BranchANote/);

    // Both land: git merges the two new folders and the two schema additions.
    const merged = branch("merged");
    for (const [dir, folder] of [...newFolders(a).map((f) => [a, f]), ...newFolders(b).map((f) => [b, f])]) {
      cpSync(path.join(dir!, folder!), path.join(merged, folder!), { recursive: true });
    }
    const mergedSchema = base + model("BranchANote") + model("BranchBTag");
    const all = readMigrations(provider, merged);
    expect(all.slice(-2).map((m) => m.name)).toEqual(["29990101000001_branch_a_notes", "29990101000002_branch_b_tags"]);

    const fresh = await createDatabase();
    cleanups.push(fresh.drop);
    const result = await migrate(fresh.db.url, all);
    expect(result.applied).toHaveLength(all.length);
    const catalog = await describeDatabase(fresh.db.url);
    for (const table of ["BranchANote", "BranchBTag", "Shop", "Affiliate", "Commission", "Job"]) {
      expect(Object.keys(catalog.tables), table).toContain(table);
    }
    // The merged schema is exactly what the merged migrations build.
    expect(await pendingSchemaSql({ provider, migrationsDir: merged, sqliteSchema: mergedSchema, postgresUrl })).toBe(
      "",
    );
    // The app's own migrations and schema agree too (nothing to make).
    expect(
      await pendingSchemaSql({ provider, migrationsDir: migrationsDir(provider), sqliteSchema: base, postgresUrl }),
    ).toBe("");
  });
});
