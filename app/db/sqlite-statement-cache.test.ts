import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cacheStatements } from "./sqlite-statement-cache.server";

// The statement cache under Prisma's adapter, called the way the adapter
// calls it: prepare(sql).bind(args), then run(), or columns() and raw().all().

function connection(size?: number) {
  const db = new Database(":memory:");
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`);
  const prepared: string[] = [];
  const real = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    prepared.push(sql);
    return real(sql);
  }) as typeof db.prepare;
  const cache = cacheStatements(db, size);
  // The cache's own PRAGMA schema_version, prepared once.
  prepared.splice(0, prepared.length);
  return { db, prepared, cache };
}

const read = (db: Database.Database, sql: string, args: unknown[]) => {
  const stmt = db.prepare(sql).bind(args);
  return { columns: stmt.columns().map((c) => c.name), values: stmt.raw().all() };
};

describe("SQLite statement cache", () => {
  it("prepares a statement once and binds each call's own arguments", () => {
    const { db, prepared } = connection();
    const insert = `INSERT INTO t (id, name) VALUES (?, ?)`;
    expect(db.prepare(insert).bind([1, "ana"]).run().changes).toBe(1);
    expect(db.prepare(insert).bind([2, "bo"]).run().changes).toBe(1);
    const select = `SELECT id, name FROM t WHERE id >= ? ORDER BY id`;
    expect(read(db, select, [1])).toEqual({
      columns: ["id", "name"],
      values: [
        [1, "ana"],
        [2, "bo"],
      ],
    });
    expect(read(db, select, [2])).toEqual({ columns: ["id", "name"], values: [[2, "bo"]] });
    expect(prepared).toEqual([insert, select]);
  });

  it("tells readers from writers, and runs an unbound statement", () => {
    const { db } = connection();
    expect(db.prepare(`SELECT 1`).bind([]).reader).toBe(true);
    expect(db.prepare(`DELETE FROM t`).bind([]).reader).toBe(false);
    db.prepare("BEGIN").run();
    expect(db.inTransaction).toBe(true);
    db.exec("ROLLBACK");
  });

  it("drops the least recently used statement past its size", () => {
    const { db, prepared, cache } = connection(2);
    const a = `SELECT 'a'`;
    const b = `SELECT 'b'`;
    const c = `SELECT 'c'`;
    for (const sql of [a, b, a, c, a, b]) db.prepare(sql).bind([]).raw().all();
    // b was dropped for c (a was used since), then prepared again.
    expect(prepared).toEqual([a, b, c, b]);
    expect(cache.size()).toBe(2);
  });

  it("keeps working after the schema changes under a cached statement", () => {
    const { db } = connection();
    const select = `SELECT * FROM t`;
    expect(read(db, select, []).columns).toEqual(["id", "name"]);
    db.exec(`ALTER TABLE t ADD COLUMN note TEXT`);
    db.exec(`INSERT INTO t (id, name, note) VALUES (1, 'ana', 'x')`);
    expect(read(db, select, [])).toEqual({ columns: ["id", "name", "note"], values: [[1, "ana", "x"]] });
  });

  it("reports a bad statement as an error, and caches nothing for it", () => {
    const { db, cache } = connection();
    expect(() => db.prepare(`SELECT FROM nowhere`)).toThrow();
    expect(cache.size()).toBe(0);
  });
});
