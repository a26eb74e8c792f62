import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { bind, dialectOf } from "../../db/dialect";

// Raw statements of the payout domain (the set-based refresh), written once
// with `?` placeholders for SQLite and PostgreSQL. Every statement names its
// shop: raw SQL is not scoped by the shop client.

export type Client = Db | Tx;

export function execute(client: Client, sql: string, ...params: unknown[]): Promise<number> {
  return client.$executeRawUnsafe(bind(dialectOf(client), sql), ...params);
}

export function query<T>(client: Client, sql: string, ...params: unknown[]): Promise<T[]> {
  return client.$queryRawUnsafe<T[]>(bind(dialectOf(client), sql), ...params);
}

/** `AND "column" IN (?, ?, ...)` for a list, or nothing when the list is absent. */
export function inList(column: string, values: readonly string[] | undefined) {
  if (!values) return { sql: "", params: [] as string[] };
  if (values.length === 0) return { sql: " AND 1 = 0", params: [] as string[] };
  return { sql: ` AND ${column} IN (${values.map(() => "?").join(", ")})`, params: [...values] };
}

/**
 * Locks the shop's payouts that `where` selects until the transaction ends,
 * on PostgreSQL (SELECT ... FOR UPDATE): a writer that reads payouts and then
 * writes lines by them (the refresh, a cancelled order) waits for one that is
 * moving them, and then reads their new state. SQLite runs one write
 * transaction at a time, so there is nothing to lock.
 */
export async function lockPayouts(client: Client, shopId: string, where: string, ...params: unknown[]) {
  if (dialectOf(client) !== "postgresql") return;
  await query(
    client,
    `SELECT "id" FROM "Payout" WHERE "shopId" = ? AND ${where} ORDER BY "id" FOR UPDATE`,
    shopId,
    ...params,
  );
}
