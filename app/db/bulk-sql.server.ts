import type BetterSqlite3 from "better-sqlite3";
import type { Prisma } from "./generated/sqlite";
import type { Tx } from "./transaction";
import type { Db } from "./client.server";
import { sqlDate, type Dialect } from "./dialect";
import { retryWhileBusy } from "./sqlite-adapter.server";
import { statementLabel } from "./write-lock-stats";

// Bulk statements for the hot path of the job worker (a batch of webhook
// orders: their events, signals, rows and commission lines). Prisma's query
// compiler (engineType "client") costs tens of microseconds per row written,
// per value of an `in` list and per kilobyte of parameters: in the orders
// benchmark createMany and the batch's `in` lookups took most of the worker's
// time. Two implementations of one small interface:
// - prismaBulk: statements through the Prisma client and its transaction
//   (PostgreSQL, and SQLite inside Prisma transactions). A batch travels as
//   ONE bound JSON parameter that the database unpacks itself.
// - sqliteBulk: a better-sqlite3 connection of the job worker's own, with
//   prepared statements (SQLite: the worker's batch transaction runs on it,
//   see job-queue.server.ts).
//
// Inserts give every column, DateTime ones included: the database's own
// defaults are not Prisma's (SQLite's CURRENT_TIMESTAMP is not the ISO 8601
// text Prisma writes and compares against), and @default(cuid()) and
// @updatedAt are filled in by Prisma, not by the database. Selects are for
// text and number columns; booleans and dates come back in each database's
// own form, so the caller converts them (bool(), date()).
//
// Table and column names are typed from the Prisma schema (a misspelt one
// does not compile), and every statement on a table with a shop names the
// shop(s) it may touch: raw SQL is not scoped by the shop client. ANY_SHOP
// says so out loud where the ids come from the job queue, not a request.

export type Provider = Dialect;
export type SqlValue = string | number | boolean | Date | null;
type Row = Record<string, SqlValue>;

/** A table: a model of the Prisma schema. */
export type Table = Prisma.ModelName;
type Scalars<M extends Table> = Prisma.TypeMap["model"][M]["payload"]["scalars"];
/** A column of a table (a scalar field of its model). */
export type Column<M extends Table> = keyof Scalars<M> & string;
/** Some columns of a table with the values to write. */
export type RowOf<M extends Table> = { [C in Column<M>]?: SqlValue };

/** Every shop: the ids come from the job queue (a worker's batch spans shops). */
export const ANY_SHOP = Symbol("any shop");
/** The shop(s) whose rows a statement may touch; a table without a shop (the job queue) has none. */
export type ShopScope<M extends Table> =
  "shopId" extends Column<M> ? { shopId: string | readonly string[] | typeof ANY_SHOP } : { shopId?: never };

/** The row type a caller reads: only columns of the table (values as read: see `Read`). */
export type RowShape<M extends Table, T> = { [K in keyof T]: K extends Column<M> ? unknown : never };

export interface TableReads<M extends Table> {
  /** SELECT columns FROM table WHERE shop scope (and other columns' values) AND column IN (values), for a text column. */
  findIn<T extends RowShape<M, T>>(
    columns: readonly (keyof T & Column<M>)[],
    scope: ShopScope<M> & Omit<RowOf<M>, "shopId">,
    column: Column<M>,
    values: string[],
    options?: ReadOptions,
  ): Promise<T[]>;
}

export interface ReadOptions {
  /**
   * Locks the rows read until the transaction ends (PostgreSQL's FOR
   * UPDATE), for a read-then-write of rows another worker may change at the
   * same moment. On SQLite the writer already holds the write lock.
   */
  forUpdate?: boolean;
}

export interface BulkSql {
  /** Reads of one table: `bulk.from("Payout").findIn<Row>(columns, { shopId }, "id", ids)`. */
  from<M extends Table>(table: M): TableReads<M>;
  /** UPDATE table SET set WHERE shop scope (and other columns' values) AND column IN (values), for a text column. */
  updateIn<M extends Table>(
    table: M,
    set: RowOf<M>,
    scope: ShopScope<M> & Omit<RowOf<M>, "shopId">,
    column: Column<M>,
    values: string[],
  ): Promise<void>;
  /**
   * Inserts the rows (each with the columns of the first). onConflict: skip
   * the rows a unique key already has ("ignore"), or update those columns
   * of the row with that key ({ key, update }).
   */
  insertRows<M extends Table>(table: M, rows: readonly RowOf<M>[], options?: InsertOptions<M>): Promise<void>;
  /**
   * Inserts the rows a unique key does not already have (ON CONFLICT DO
   * NOTHING) and answers the `returned` column of those it inserted. On
   * PostgreSQL a row another transaction is inserting waits for it and is
   * then skipped, where a plain INSERT would fail the whole statement (23505).
   */
  insertNew<M extends Table>(table: M, rows: readonly RowOf<M>[], returned: Column<M>): Promise<string[]>;
  /**
   * The id of a queued job of this type whose unique key starts with
   * `keyPrefix`, or null. On PostgreSQL its row stays locked until the
   * transaction ends, so no worker claims it (the claim skips locked rows)
   * before what this transaction writes is visible to it; on SQLite the
   * caller holds the write lock, which gives the same.
   */
  queuedJob(type: string, keyPrefix: string): Promise<string | null>;
}

function queuedJobSql(provider: Provider) {
  const [type, key] = provider === "postgresql" ? ["$1", "$2"] : ["?", "?"];
  return `SELECT "id" FROM "Job" WHERE "type" = ${type} AND "status" = 'queued' AND "uniqueKey" LIKE ${key} ESCAPE '\\' LIMIT 1${provider === "postgresql" ? " FOR UPDATE" : ""}`;
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface InsertOptions<M extends Table = Table> {
  onConflict?: "ignore" | { key: Column<M>[]; update: Column<M>[] };
}

// The ON CONFLICT clause (the same words on SQLite and PostgreSQL).
function conflictClause(options: InsertOptions) {
  const c = options.onConflict;
  if (!c) return "";
  if (c === "ignore") return " ON CONFLICT DO NOTHING";
  return ` ON CONFLICT (${c.key.map(identifier).join(", ")}) DO UPDATE SET ${c.update.map((u) => `${identifier(u)} = excluded.${identifier(u)}`).join(", ")}`;
}

const identifier = (name: string) => {
  // Table and column names come from code, never from input; this keeps it so.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  return `"${name}"`;
};

/** A boolean column's value from either database (SQLite stores 0/1). */
export const bool = (value: unknown) => value === true || value === 1 || value === "1";

/** A DateTime column's value from either path (a Date through Prisma, ISO 8601 text from better-sqlite3). */
export function date(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/** A number column's value from either database (PostgreSQL sums and counts come back as bigint or text). */
export function num(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "bigint") return Number(value);
  return Number(String(value));
}

function jsonValue(provider: Provider, value: SqlValue) {
  if (value instanceof Date) return sqlDate(provider, value);
  if (typeof value === "boolean" && provider === "sqlite") return value ? 1 : 0;
  return value;
}

const sameValue = (a: SqlValue, b: SqlValue) =>
  a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());

/** Parameters in the order their placeholders appear in the SQL text. */
function params(provider: Provider) {
  const values: SqlValue[] = [];
  const mark = (value: SqlValue) => {
    values.push(value);
    return provider === "postgresql" ? `$${values.length}` : "?";
  };
  // The set of text values of a JSON array bound as one parameter.
  const set = (items: string[]) => {
    const p = mark(JSON.stringify([...new Set(items)]));
    return provider === "postgresql"
      ? `(SELECT json_array_elements_text(${p}::json))`
      : `(SELECT value FROM json_each(${p}))`;
  };
  return { values, mark, set };
}

type Scope = Record<string, SqlValue | readonly string[] | typeof ANY_SHOP | undefined>;

/** "column = ?" per scope entry; a list is "IN (...)"; null is "IS NULL"; ANY_SHOP adds nothing. */
function scopeConditions(p: ReturnType<typeof params>, scope: Scope) {
  return Object.entries(scope).flatMap(([c, v]) => {
    if (v === ANY_SHOP || v === undefined) return [];
    if (v === null) return [`${identifier(c)} IS NULL`];
    if (Array.isArray(v)) return [`${identifier(c)} IN ${p.set(v)}`];
    return [`${identifier(c)} = ${p.mark(v as SqlValue)}`];
  });
}

function selectInSql(
  provider: Provider,
  table: string,
  columns: readonly string[],
  scope: Scope,
  column: string,
  values: string[],
  options: ReadOptions = {},
) {
  const p = params(provider);
  const conditions = [`${identifier(column)} IN ${p.set(values)}`, ...scopeConditions(p, scope)];
  const lock = options.forUpdate && provider === "postgresql" ? " FOR UPDATE" : "";
  return {
    sql: `SELECT ${columns.map(identifier).join(", ")} FROM ${identifier(table)} WHERE ${conditions.join(" AND ")}${lock}`,
    values: p.values,
  };
}

function updateInSql(provider: Provider, table: string, set: Row, scope: Scope, column: string, values: string[]) {
  const p = params(provider);
  const sets = Object.entries(set).map(([c, v]) => `${identifier(c)} = ${p.mark(v)}`);
  const conditions = [`${identifier(column)} IN ${p.set(values)}`, ...scopeConditions(p, scope)];
  return {
    sql: `UPDATE ${identifier(table)} SET ${sets.join(", ")} WHERE ${conditions.join(" AND ")}`,
    values: p.values,
  };
}

// Rows per statement: keeps one statement's JSON text to a few megabytes.
const ROWS_PER_STATEMENT = 2000;

/** Bulk statements through a Prisma client or transaction. */
export function prismaBulk(client: Tx | Db, provider: Provider): BulkSql {
  return {
    from: (table) => ({
      async findIn(columns, scope, column, values, options) {
        if (values.length === 0) return [];
        const { sql, values: args } = selectInSql(provider, table, columns, scope as Scope, column, values, options);
        return client.$queryRawUnsafe(sql, ...args);
      },
    }),
    async updateIn(table, set, scope, column, values) {
      if (values.length === 0) return;
      const { sql, values: args } = updateInSql(provider, table, set as Row, scope as Scope, column, values);
      await client.$executeRawUnsafe(sql, ...args);
    },
    async insertRows(table, typed, options = {}) {
      // The names were checked against the schema at the call; here a row is columns and values.
      const rows = typed as readonly Row[];
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]!);
      const list = columns.map(identifier).join(", ");
      // "WHERE true" lets SQLite read ON CONFLICT after INSERT ... SELECT.
      const conflict = options.onConflict ? ` WHERE true${conflictClause(options as InsertOptions)}` : "";
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const part = rows.slice(i, i + ROWS_PER_STATEMENT);
        if (provider === "postgresql") {
          await client.$executeRawUnsafe(
            `INSERT INTO ${identifier(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${identifier(table)}, $1::json)${conflict}`,
            JSON.stringify(
              part.map((row) => Object.fromEntries(columns.map((c) => [c, jsonValue(provider, row[c] ?? null)]))),
            ),
          );
          continue;
        }
        // SQLite reads each `value ->> '$.column'` from the row's JSON text
        // again: a column with one value in every row (a job's type, status,
        // dates) is bound once instead, which made a bulk approval's 10,000
        // job rows about twice as cheap to insert.
        const shared = columns.filter((c) => part.every((row) => sameValue(row[c] ?? null, part[0]![c] ?? null)));
        const varying = columns.filter((c) => !shared.includes(c));
        const select = columns.map((c) => (shared.includes(c) ? "?" : `value ->> '$.${c}'`));
        await client.$executeRawUnsafe(
          `INSERT INTO ${identifier(table)} (${list}) SELECT ${select.join(", ")} FROM json_each(?)${conflict}`,
          ...shared.map((c) => jsonValue(provider, part[0]![c] ?? null)),
          JSON.stringify(
            part.map((row) => Object.fromEntries(varying.map((c) => [c, jsonValue(provider, row[c] ?? null)]))),
          ),
        );
      }
    },
    async insertNew(table, typed, returned) {
      const rows = typed as readonly Row[];
      if (rows.length === 0) return [];
      const columns = Object.keys(rows[0]!);
      const list = columns.map(identifier).join(", ");
      const inserted: string[] = [];
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const json = JSON.stringify(
          rows
            .slice(i, i + ROWS_PER_STATEMENT)
            .map((row) => Object.fromEntries(columns.map((c) => [c, jsonValue(provider, row[c] ?? null)]))),
        );
        const source =
          provider === "postgresql"
            ? `SELECT ${list} FROM json_populate_recordset(NULL::${identifier(table)}, $1::json)`
            : `SELECT ${columns.map((c) => `value ->> '$.${c}'`).join(", ")} FROM json_each(?)`;
        const found = await client.$queryRawUnsafe<Record<string, unknown>[]>(
          `INSERT INTO ${identifier(table)} (${list}) ${source} WHERE true ON CONFLICT DO NOTHING RETURNING ${identifier(returned)}`,
          json,
        );
        for (const r of found) inserted.push(String(r[returned]));
      }
      return inserted;
    },
    async queuedJob(type, keyPrefix) {
      const found = await client.$queryRawUnsafe<{ id: string }[]>(queuedJobSql(provider), type, likePrefix(keyPrefix));
      return found[0]?.id ?? null;
    },
  };
}

/**
 * Bulk statements on a better-sqlite3 connection (prepared once, by SQL
 * text). Outside a transaction, a statement that finds the write lock taken
 * is tried again on a timer for up to `busyGiveUpMs` (the connection has no
 * busy timeout: sqlite-adapter.server.ts).
 */
export function sqliteBulk(db: BetterSqlite3.Database, busyGiveUpMs = 60_000): SqliteBulk {
  const prepared = new Map<string, BetterSqlite3.Statement>();
  // Time spent per statement kind inside the current transaction, for the
  // account of a long write-lock hold (job-queue.server.ts).
  let times = new Map<string, number>();
  const timed = <T>(sql: string, run: () => T): T => {
    if (!db.inTransaction) return run();
    const start = performance.now();
    try {
      return run();
    } finally {
      const label = statementLabel(sql);
      times.set(label, (times.get(label) ?? 0) + performance.now() - start);
    }
  };
  const write = <T>(run: () => T, sql: string): T | Promise<T> =>
    db.inTransaction ? timed(sql, run) : retryWhileBusy(run, busyGiveUpMs);
  const statement = (sql: string) => {
    let s = prepared.get(sql);
    if (!s) prepared.set(sql, (s = db.prepare(sql)));
    return s;
  };
  // Bound values take the same text forms as the JSON batches (dates, booleans).
  const arg = (value: SqlValue) => jsonValue("sqlite", value);
  return {
    from: (table) => ({
      async findIn(columns, scope, column, values, options) {
        if (values.length === 0) return [];
        const { sql, values: args } = selectInSql("sqlite", table, columns, scope as Scope, column, values, options);
        return timed(sql, () => statement(sql).all(...args.map(arg))) as never[];
      },
    }),
    async updateIn(table, set, scope, column, values) {
      if (values.length === 0) return;
      const { sql, values: args } = updateInSql("sqlite", table, set as Row, scope as Scope, column, values);
      await write(() => statement(sql).run(...args.map(arg)), sql);
    },
    async insertRows(table, typed, options = {}) {
      const rows = typed as readonly Row[];
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]!);
      const conflict = conflictClause(options as InsertOptions);
      const sql = `INSERT INTO ${identifier(table)} (${columns.map(identifier).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})${conflict}`;
      const insert = statement(sql);
      for (const row of rows) await write(() => insert.run(...columns.map((c) => arg(row[c] ?? null))), sql);
    },
    async insertNew(table, typed, returned) {
      const rows = typed as readonly Row[];
      if (rows.length === 0) return [];
      const columns = Object.keys(rows[0]!);
      const sql = `INSERT INTO ${identifier(table)} (${columns.map(identifier).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING RETURNING ${identifier(returned)}`;
      const insert = statement(sql).pluck();
      const inserted: string[] = [];
      for (const row of rows) {
        const value = await write(() => insert.get(...columns.map((c) => arg(row[c] ?? null))), sql);
        if (value !== undefined) inserted.push(String(value));
      }
      return inserted;
    },
    async queuedJob(type, keyPrefix) {
      const sql = queuedJobSql("sqlite");
      const found = timed(sql, () => statement(sql).pluck().get(type, likePrefix(keyPrefix)));
      return found === undefined ? null : String(found);
    },
    takeStatementTimes() {
      const taken = [...times].sort((a, b) => b[1] - a[1]);
      times = new Map();
      return taken;
    },
  };
}

/** sqliteBulk's statements, which also account for their time inside a transaction. */
export interface SqliteBulk extends BulkSql {
  /** Milliseconds per statement kind ("INSERT Commission") since the last call, most first. */
  takeStatementTimes(): [label: string, ms: number][];
}
