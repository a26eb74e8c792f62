import type BetterSqlite3 from "better-sqlite3";

// Prisma's better-sqlite3 adapter prepares every statement anew
// (`client.prepare(sql).bind(args)` per query): in the orders bench that was
// 5.4 s of the job worker's 91 s of CPU, SQLite compiling the same few
// hundred statements again and again. Here a connection keeps its prepared
// statements by SQL text (least recently used dropped past `size`).
//
// A better-sqlite3 statement binds its parameters once for good, so the
// adapter gets a view of the cached statement: `bind(args)` keeps the
// arguments and passes them to the one call that follows (run, or raw().all()
// for a reader), which is all the adapter does with a bound statement
// (and `prepare("BEGIN").run()`).

/** What Prisma's adapter calls on `client.prepare(sql)` (adapter-better-sqlite3, performIO and executeIO). */
interface BoundStatement {
  readonly reader: boolean;
  columns(): BetterSqlite3.ColumnDefinition[];
  run(): BetterSqlite3.RunResult;
  raw(toggle?: boolean): { all(): unknown[][] };
}

const STATEMENT_CACHE_SIZE = 500;

export function cacheStatements(db: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE) {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, BetterSqlite3.Statement<unknown[]>>();
  // A statement prepared before a schema change still reports the old
  // columns until it next runs (a `SELECT *` would read new values under old
  // names), so the cache empties when the schema's version moves: one step
  // of a prepared PRAGMA per statement, against a prepare saved.
  const schemaVersion = prepare<[], number>("PRAGMA schema_version").pluck();
  let version = schemaVersion.get();
  const cached = (sql: string) => {
    const now = schemaVersion.get();
    if (now !== version) {
      cache.clear();
      version = now;
    }
    let statement = cache.get(sql);
    if (statement) {
      // Most recently used last: Map keeps insertion order.
      cache.delete(sql);
    } else {
      statement = prepare<unknown[]>(sql);
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  };
  const view = (statement: BetterSqlite3.Statement<unknown[]>) => ({
    reader: statement.reader,
    // The adapter's own BEGIN (not used by sqlite-adapter.server.ts, which begins its own way).
    run: () => statement.run(),
    bind: (args: unknown[]): BoundStatement => ({
      reader: statement.reader,
      columns: () => statement.columns(),
      run: () => statement.run(args),
      raw: (toggle = true) => ({ all: () => statement.raw(toggle).all(args) as unknown[][] }),
    }),
  });
  db.prepare = ((sql: string) => view(cached(sql))) as unknown as typeof db.prepare;
  return { size: () => cache.size };
}
