import type { Tx } from "../models/jobs/job-queue.server";
import type { Db } from "./client.server";

// Bulk statements for the hot path of the job worker (a batch of webhook
// orders: their events, signals, rows and commission lines). Prisma's query
// compiler (engineType "client") costs tens of microseconds per row written
// and per value of an `in` list: in the orders benchmark createMany and the
// batch's `in` lookups took most of the worker's time. One parameterised
// statement per chunk, run through the same client and transaction (so the
// same connection, transaction and driver adapter conversions), does the
// same work for a fraction of that. Everything else stays on Prisma's API.
//
// Inserts give every column, DateTime ones included: the database's own
// defaults are not Prisma's (SQLite's CURRENT_TIMESTAMP is not the ISO 8601
// text Prisma writes and compares against), and @default(cuid()) and
// @updatedAt are filled in by Prisma, not by the database.

export type Provider = "sqlite" | "postgresql";
export type SqlValue = string | number | boolean | Date | null;

const identifier = (name: string) => {
  // Table and column names come from code, never from input; this keeps it so.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  return `"${name}"`;
};

// A batch travels as ONE bound parameter, a JSON array, that the database
// unpacks itself (SQLite's json_each, PostgreSQL's json_populate_recordset /
// json_array_elements_text): the query compiler's cost is per bound value,
// so thousands of values as separate parameters cost more than the write.
// Dates are written in the text form each database stores through Prisma's
// driver adapters (SQLite: ISO 8601 with "+00:00"; PostgreSQL: timestamp(3)
// in UTC, which the cast from ISO 8601 gives).
function jsonValue(provider: Provider, value: SqlValue) {
  if (value instanceof Date) return provider === "sqlite" ? value.toISOString().replace("Z", "+00:00") : value.toISOString();
  if (typeof value === "boolean" && provider === "sqlite") return value ? 1 : 0;
  return value;
}

const jsonParam = (provider: Provider, rows: Record<string, SqlValue>[], columns: string[]) =>
  JSON.stringify(rows.map((row) => Object.fromEntries(columns.map((c) => [c, jsonValue(provider, row[c] ?? null)]))));

/** Parameters in the order their placeholders appear in the SQL text. */
function params(provider: Provider) {
  const values: unknown[] = [];
  const mark = (value: unknown) => {
    values.push(value);
    return provider === "postgresql" ? `$${values.length}` : "?";
  };
  // The set of text values of a JSON array bound as one parameter.
  const set = (items: string[]) => {
    const p = mark(JSON.stringify([...new Set(items)]));
    return provider === "postgresql" ? `(SELECT json_array_elements_text(${p}::json))` : `(SELECT value FROM json_each(${p}))`;
  };
  return { values, mark, set };
}

/** The SQL text of one INSERT of the rows of a JSON array (bound as parameter 1). */
export function buildInsert(provider: Provider, table: string, columns: string[]) {
  const list = columns.map(identifier).join(", ");
  if (provider === "postgresql") return `INSERT INTO ${identifier(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${identifier(table)}, $1::json)`;
  const fields = columns.map((c) => `value ->> '$.${c}'`).join(", ");
  return `INSERT INTO ${identifier(table)} (${list}) SELECT ${fields} FROM json_each(?)`;
}

// Rows per statement: keeps one statement's JSON text to a few megabytes.
const ROWS_PER_STATEMENT = 2000;

/** Inserts the rows (every row with the columns of the first). */
export async function insertRows(client: Tx | Db, provider: Provider, table: string, rows: Record<string, SqlValue>[]) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  for (const column of columns) identifier(column);
  const sql = buildInsert(provider, table, columns);
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await client.$executeRawUnsafe(sql, jsonParam(provider, rows.slice(i, i + ROWS_PER_STATEMENT), columns));
  }
}

/**
 * SELECT `columns` FROM `table` WHERE scope AND `column` IN (values), for a
 * text column. The value list is one JSON parameter however long it is.
 */
export async function findIn<T extends Record<string, unknown>>(
  client: Tx | Db,
  provider: Provider,
  table: string,
  columns: (keyof T & string)[],
  scope: Record<string, SqlValue>,
  column: string,
  values: string[],
): Promise<T[]> {
  if (values.length === 0) return [];
  const p = params(provider);
  const conditions = [`${identifier(column)} IN ${p.set(values)}`, ...Object.entries(scope).map(([c, v]) => `${identifier(c)} = ${p.mark(v)}`)];
  const sql = `SELECT ${columns.map(identifier).join(", ")} FROM ${identifier(table)} WHERE ${conditions.join(" AND ")}`;
  return client.$queryRawUnsafe<T[]>(sql, ...p.values);
}

/** UPDATE `table` SET `set` WHERE `column` IN (values), for a text column. */
export async function updateIn(client: Tx | Db, provider: Provider, table: string, set: Record<string, SqlValue>, column: string, values: string[]) {
  if (values.length === 0) return;
  const p = params(provider);
  const sets = Object.entries(set).map(([c, v]) => `${identifier(c)} = ${p.mark(v)}`);
  await client.$executeRawUnsafe(`UPDATE ${identifier(table)} SET ${sets.join(", ")} WHERE ${identifier(column)} IN ${p.set(values)}`, ...p.values);
}
