import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { bind, dialectOf } from "../../db/dialect";
import { num } from "../../db/bulk-sql.server";
import { LOOSE_SQL, looseSqlOf } from "./payable-balance";
import type { LooseGroup } from "./pending-plan";
import { openKeyOf } from "./payout-states";

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

function selectionSql(selection: PayoutSelection, table?: string) {
  const col = (name: string) => (table ? `"${table}"."${name}"` : `"${name}"`);
  if ("ids" in selection) {
    const ids = inList(col("id"), selection.ids);
    return { sql: `${col("shopId")} = ?${ids.sql}`, params: [selection.shopId, ...ids.params] };
  }
  const affiliates = inList(col("affiliateId"), selection.affiliateIds);
  return {
    sql: `${col("shopId")} = ? AND ${col("status")} = 'pending'${affiliates.sql}`,
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
 * times (payouts benchmark: a batch taking a whole shop's lines).
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

/**
 * The selected pending payouts: id, open key (affiliate and currency) and the
 * amount each shows. On PostgreSQL the read locks them until the transaction
 * ends (as lockPayouts, in the same id order): it waits for a batch, a settle
 * or another refresh moving them, then reads them as they are.
 */
export async function lockPendingPayouts(client: Client, selection: PayoutSelection & { pending: true }) {
  const where = selectionSql(selection);
  const lock = dialectOf(client) === "postgresql" ? ` ORDER BY "id" FOR UPDATE` : "";
  const rows = await query<{ id: string; affiliateId: string; currency: string; amount: unknown }>(
    client,
    `SELECT "id", "affiliateId", "currency", "amount" FROM "Payout" WHERE ${where.sql}${lock}`,
    ...where.params,
  );
  return rows.map((row) => ({ id: row.id, key: openKeyOf(row.affiliateId, row.currency), amount: num(row.amount) }));
}

/**
 * The loose lines of a shop's balances that have no pending payout (below
 * the minimum, negative, or approved since the last refresh): per currency,
 * and the `limit` largest per affiliate and currency. A pending payout holds
 * no lines (ADR 058), so the balances it shows are left out by its open key.
 */
export async function balancesWithoutPayout(client: Client, shopId: string, limit: number) {
  const from = `FROM "Commission" WHERE "shopId" = ? AND "status" = 'approved' AND "payoutId" IS NULL
     AND ("affiliateId" || ':' || "currency") NOT IN (SELECT "openKey" FROM "Payout" WHERE "shopId" = ? AND "status" = 'pending' AND "openKey" IS NOT NULL)`;
  const [byCurrency, largest] = await Promise.all([
    query<{ currency: string; amount: unknown; lines: unknown }>(
      client,
      `SELECT "currency", SUM("amount") AS "amount", COUNT(*) AS "lines" ${from} GROUP BY "currency"`,
      shopId,
      shopId,
    ),
    query<{ affiliateId: string; currency: string; amount: unknown; lines: unknown }>(
      client,
      `SELECT "affiliateId", "currency", SUM("amount") AS "amount", COUNT(*) AS "lines" ${from}
       GROUP BY "affiliateId", "currency" ORDER BY SUM("amount") DESC, "affiliateId" LIMIT ${Math.trunc(limit)}`,
      shopId,
      shopId,
    ),
  ]);
  return {
    byCurrency: byCurrency.map((r) => ({ currency: r.currency, amount: num(r.amount), lines: num(r.lines) })),
    largest: largest.map((r) => ({ ...r, amount: num(r.amount), lines: num(r.lines) })),
  };
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
 * Attaches to each payout that has just left pending (the selection: a new
 * batch, or payouts marked paid from pending) the loose payable lines of its
 * affiliate in its currency. A pending payout holds no lines (ADR 058): it
 * shows the affiliate's balance, and the lines join it only here, in the
 * transaction that moves it, so what it pays is what was loose at that
 * moment. Each line is taken only while still loose (the compare-and-set on
 * "payoutId" IS NULL and 'approved'): one a concurrent cancellation voided
 * first is not taken, and one taken here is not voided after (the
 * cancellation's own compare-and-set, adjust-order.server.ts). The line's
 * updatedAt is left as it is: rewriting it costs a quarter of this statement
 * on a million lines, and the payout's history records when it was taken.
 */
export async function attachLinesLeavingPending(
  client: Client,
  selection: { shopId: string; batchId: string } | { shopId: string; ids: readonly string[] },
) {
  const which =
    "batchId" in selection
      ? { sql: ` AND p."batchId" = ?`, params: [selection.batchId] }
      : inList(`p."id"`, selection.ids);
  if (!("batchId" in selection) && selection.ids.length === 0) return;
  // A batch may take a whole shop's lines: a wide page cache on SQLite, a
  // join the planner cannot turn into a loop per line on PostgreSQL.
  const attach = () =>
    withoutNestedLoops(client, () =>
      execute(
        client,
        `UPDATE "Commission" SET "payoutId" = p."id" FROM "Payout" p
     WHERE p."affiliateId" = "Commission"."affiliateId" AND p."currency" = "Commission"."currency"
       AND p."shopId" = ?${which.sql}
       AND "Commission"."shopId" = ? AND ${looseSqlOf("Commission")}`,
        selection.shopId,
        ...which.params,
        selection.shopId,
      ),
    );
  await ("batchId" in selection ? withWidePageCache(client, attach) : attach());
}

/**
 * Runs `work` with PostgreSQL's nested-loop joins off for this transaction,
 * then sets them back. Tables that have not been analyzed yet (a new shop
 * paying right after an import, every test database) are estimated at a row
 * or two, and the planner then joins a batch's payouts to the lines in a
 * nested loop that reads every payout once per line: 3.4 s for 2,500 payouts
 * and 2,500 lines, where the hash or merge join it takes with statistics
 * needs 0.13 s. The join reads the shop's loose lines once either way.
 */
async function withoutNestedLoops<T>(client: Client, work: () => Promise<T>): Promise<T> {
  if (dialectOf(client) !== "postgresql") return work();
  const [before] = await query<{ value: string }>(client, `SELECT current_setting('enable_nestloop') AS "value"`);
  await query(client, `SELECT set_config('enable_nestloop', 'off', true)`);
  try {
    return await work();
  } finally {
    await query(client, `SELECT set_config('enable_nestloop', ?, true)`, before?.value ?? "on");
  }
}

/**
 * Sets the amount of these pending payouts (by id) to their affiliate's
 * loose balance in their currency, as the refresh just read it; the caller
 * passes only those whose balance changed. The balance a pending payout
 * shows is as of the last refresh; it pays what is loose when it leaves
 * pending (attachLinesLeavingPending).
 */
export async function setPendingAmounts(
  client: Client,
  shopId: string,
  amounts: readonly { id: string; amount: number }[],
  updatedAt: Date,
) {
  if (amounts.length === 0) return;
  const source =
    dialectOf(client) === "postgresql"
      ? `(SELECT j."id", j."amount" FROM json_to_recordset(CAST(? AS json)) AS j("id" text, "amount" integer)) g`
      : `(SELECT value ->> '$.id' AS "id", value ->> '$.amount' AS "amount" FROM json_each(?)) g`;
  await execute(
    client,
    `UPDATE "Payout" SET "amount" = g."amount", "updatedAt" = ? FROM ${source}
     WHERE "Payout"."id" = g."id" AND "Payout"."shopId" = ? AND "Payout"."status" = 'pending'`,
    updatedAt,
    JSON.stringify(amounts),
    shopId,
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
