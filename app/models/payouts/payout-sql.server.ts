import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { bind, dialectOf } from "../../db/dialect";
import { num } from "../../db/bulk-sql.server";
import { LOOSE_SQL, looseSqlOf } from "./payable-balance";
import type { LooseGroup } from "./pending-plan";

// The set-based statements of the payout domain (the refresh, a batch, a
// settle), each a typed function: callers pass the shop and ids, never SQL
// text. The statements are written once with `?` placeholders for SQLite and
// PostgreSQL; every one names its shop, since raw SQL is not scoped by the
// shop client. What a row-by-row Prisma call would do (findIn, updateIn,
// insertRows) goes through the typed bulk layer (db/bulk-sql.server.ts).

export type Client = Db | Tx;

function execute(client: Client, sql: string, ...params: unknown[]): Promise<number> {
  return client.$executeRawUnsafe(bind(dialectOf(client), sql), ...params);
}

/** Raw reads for the money checker (money-invariants.server.ts), whose checks span shops; nothing else reads so. */
export function query<T>(client: Client, sql: string, ...params: unknown[]): Promise<T[]> {
  return client.$queryRawUnsafe<T[]>(bind(dialectOf(client), sql), ...params);
}

/** `AND column IN (?, ?, ...)` for a list, or nothing when the list is absent (every affiliate). */
function inList(column: string, values: readonly string[] | undefined) {
  if (!values) return { sql: "", params: [] as string[] };
  if (values.length === 0) return { sql: " AND 1 = 0", params: [] as string[] };
  return { sql: ` AND ${column} IN (${values.map(() => "?").join(", ")})`, params: [...values] };
}

/** Which of a shop's payouts: by id, or the pending ones (of some affiliates, or all). */
type PayoutSelection =
  { shopId: string; ids: readonly string[] } | { shopId: string; pending: true; affiliateIds?: readonly string[] };

function selectionSql(selection: PayoutSelection) {
  if ("ids" in selection) {
    const ids = inList(`"id"`, selection.ids);
    return { sql: `"shopId" = ?${ids.sql}`, params: [selection.shopId, ...ids.params] };
  }
  const affiliates = inList(`"affiliateId"`, selection.affiliateIds);
  return {
    sql: `"shopId" = ? AND "status" = 'pending'${affiliates.sql}`,
    params: [selection.shopId, ...affiliates.params],
  };
}

/**
 * Locks the selected payouts until the transaction ends, on PostgreSQL
 * (SELECT ... FOR UPDATE): a writer that reads payouts and then writes lines
 * by them (the refresh, a cancelled order) waits for one that is moving
 * them, and then reads their new state. SQLite runs one write transaction at
 * a time, so there is nothing to lock.
 */
export async function lockPayouts(client: Client, selection: PayoutSelection) {
  if (dialectOf(client) !== "postgresql") return;
  if ("ids" in selection && selection.ids.length === 0) return;
  const where = selectionSql(selection);
  await query(client, `SELECT "id" FROM "Payout" WHERE ${where.sql} ORDER BY "id" FOR UPDATE`, ...where.params);
}

/**
 * Runs `work` with a 64 MB page cache on SQLite (the default is 2 MB), then
 * gives the connection its own size back. Gathering a whole shop rewrites
 * every loose line and inserts each into the payoutId index in no useful
 * order: with 2 MB the index pages are evicted and read again thousands of
 * times, which made the attach most of the refresh (payouts benchmark).
 */
export async function withWidePageCache<T>(client: Client, work: () => Promise<T>): Promise<T> {
  if (dialectOf(client) !== "sqlite") return work();
  const [before] = await query<{ cache_size: number | bigint }>(client, "PRAGMA cache_size");
  await query(client, "PRAGMA cache_size = -65536");
  try {
    return await work();
  } finally {
    await query(client, `PRAGMA cache_size = ${Number(before?.cache_size ?? -2000)}`);
  }
}

/** The open keys (affiliate and currency) of the selected pending payouts. */
export async function pendingOpenKeys(client: Client, selection: PayoutSelection & { pending: true }) {
  const where = selectionSql(selection);
  const rows = await query<{ openKey: string }>(
    client,
    `SELECT "openKey" FROM "Payout" WHERE ${where.sql}`,
    ...where.params,
  );
  return new Set(rows.map((row) => row.openKey));
}

/** The ids of the selected pending payouts whose amount is not positive or below the minimum (minor units). */
export async function pendingBelowMinimum(
  client: Client,
  selection: PayoutSelection & { pending: true },
  minimumAmount: number,
) {
  const where = selectionSql(selection);
  const rows = await query<{ id: string }>(
    client,
    `SELECT "id" FROM "Payout" WHERE ${where.sql} AND ("amount" <= 0 OR "amount" < ?)`,
    ...where.params,
    minimumAmount,
  );
  return rows.map((row) => row.id);
}

/** The loose payable lines (in no payout) of a shop, summed per affiliate and currency. */
export async function looseGroups(client: Client, shopId: string, affiliateIds?: readonly string[]) {
  const scope = inList(`"affiliateId"`, affiliateIds);
  const rows = await query<{ affiliateId: string; currency: string; amount: unknown; lines: unknown }>(
    client,
    `SELECT "affiliateId", "currency", SUM("amount") AS "amount", COUNT(*) AS "lines" FROM "Commission"
     WHERE "shopId" = ? AND ${LOOSE_SQL}${scope.sql} GROUP BY "affiliateId", "currency"`,
    shopId,
    ...scope.params,
  );
  return rows.map((r): LooseGroup => ({ ...r, amount: num(r.amount), lines: num(r.lines) }));
}

/**
 * Attaches every loose payable line whose affiliate and currency has a
 * pending payout to it. The line's own updatedAt is left as it is: rewriting
 * it costs a quarter of this statement on a million lines, and the payout
 * (its createdAt, its history) records when the line was gathered.
 */
export async function attachLooseLines(client: Client, shopId: string, affiliateIds?: readonly string[]) {
  const scope = inList(`"Commission"."affiliateId"`, affiliateIds);
  await execute(
    client,
    `UPDATE "Commission" SET "payoutId" = p."id" FROM "Payout" p
     WHERE p."affiliateId" = "Commission"."affiliateId" AND p."currency" = "Commission"."currency"
       AND p."shopId" = ? AND p."status" = 'pending'
       AND "Commission"."shopId" = ? AND ${looseSqlOf("Commission")}${scope.sql}`,
    shopId,
    shopId,
    ...scope.params,
  );
}

/**
 * Sets each selected payout's amount to what its lines add up to now (the
 * lines are the truth: a line approved or released meanwhile is counted
 * where it is), and its updatedAt when given.
 */
export async function sumPayoutsFromLines(
  client: Client,
  selection: PayoutSelection | { shopId: string; batchId: string },
  updatedAt?: Date,
) {
  const where =
    "batchId" in selection
      ? { sql: `"shopId" = ? AND "batchId" = ?`, params: [selection.shopId, selection.batchId] }
      : selectionSql(selection);
  await execute(
    client,
    `UPDATE "Payout" SET "amount" = COALESCE((SELECT SUM(c."amount") FROM "Commission" c WHERE c."payoutId" = "Payout"."id" AND c."shopId" = "Payout"."shopId"), 0)${updatedAt ? `, "updatedAt" = ?` : ""}
     WHERE ${where.sql}`,
    ...(updatedAt ? [updatedAt] : []),
    ...where.params,
  );
}

/**
 * Records the lines a payout that left pending gives back (PayoutRelease),
 * once per line: if PayPal pays the item after all, the payout takes them
 * back, and the money checker can tell a line that two payouts paid.
 */
export async function recordReleasedLines(client: Client, payout: { shopId: string; id: string }, at: Date) {
  await execute(
    client,
    `INSERT INTO "PayoutRelease" ("payoutId", "commissionId", "shopId", "amount", "createdAt")
     SELECT ?, c."id", c."shopId", c."amount", ? FROM "Commission" c WHERE c."payoutId" = ? AND c."shopId" = ?
     ON CONFLICT DO NOTHING`,
    payout.id,
    at,
    payout.id,
    payout.shopId,
  );
}

/**
 * One history line for every payout of a batch still processing, by one
 * statement: a batch may hold thousands of payouts, and a list of their ids
 * would pass the database's parameter limit. The id makes it once per payout.
 */
export async function recordBatchEvent(
  client: Client,
  batch: { shopId: string; batchId: string },
  event: { idSuffix: string; message: string; actor: string; at: Date },
) {
  await execute(
    client,
    `INSERT INTO "PayoutEvent" ("id", "shopId", "payoutId", "status", "message", "actor", "createdAt")
     SELECT "id" || CAST(? AS TEXT), "shopId", "id", 'processing', ?, ?, ?
     FROM "Payout" WHERE "shopId" = ? AND "batchId" = ? AND "status" = 'processing'`,
    event.idSuffix,
    event.message,
    event.actor,
    event.at,
    batch.shopId,
    batch.batchId,
  );
}
