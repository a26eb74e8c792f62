import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate, readMigrations } from "~/db/migrate.server";
import { parseDatabaseUrl } from "~/db/database-url";
import { createMigratedDatabase, type TestDatabase } from "../support/test-db";

// The test databases are copies of one migrated template (ADR 039). A copy
// must be the database migrate() leaves, and copies must not share rows.

async function query<T>(db: TestDatabase, sql: string): Promise<T[]> {
  if (db.provider === "sqlite") {
    const target = parseDatabaseUrl(db.url);
    if (target.provider !== "sqlite") throw new Error("expected a SQLite URL");
    const conn = new Database(target.file);
    try {
      return sql.trim().toUpperCase().startsWith("SELECT") ? (conn.prepare(sql).all() as T[]) : (conn.exec(sql), []);
    } finally {
      conn.close();
    }
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("test databases from the migrated template", () => {
  it("are fully migrated, every migration recorded once, and migrate() finds nothing to do", async () => {
    const created = await createMigratedDatabase();
    try {
      const rows = await query<{ migration_name: string }>(
        created.db,
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`,
      );
      expect(rows.map((r) => r.migration_name)).toEqual(readMigrations(created.db.provider).map((m) => m.name));
      const result = await migrate(created.db.url);
      expect(result.applied).toEqual([]);
    } finally {
      await created.drop();
    }
  });

  it("are separate copies: a row written to one is not in the next", async () => {
    const first = await createMigratedDatabase();
    const second = await createMigratedDatabase();
    try {
      expect(first.db.url).not.toBe(second.db.url);
      // A row no migration would write, in the one table every copy has.
      await query(
        first.db,
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name") VALUES ('copy-check', 'x', 'copy-check')`,
      );
      const count = `SELECT COUNT(*) AS n FROM "_prisma_migrations" WHERE "id" = 'copy-check'`;
      const inFirst = await query<{ n: number | string }>(first.db, count);
      const inSecond = await query<{ n: number | string }>(second.db, count);
      expect(Number(inFirst[0]!.n)).toBe(1);
      expect(Number(inSecond[0]!.n)).toBe(0);
    } finally {
      await first.drop();
      await second.drop();
    }
  });
});
