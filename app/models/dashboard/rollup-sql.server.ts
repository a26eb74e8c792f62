import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { num, prismaBulk } from "../../db/bulk-sql.server";
import { bind, dialectOf, type Dialect } from "../../db/dialect";

// The SQL of the dashboard rollup (ADR 011), for SQLite and PostgreSQL. Raw
// SQL because the work is grouping by an hour computed from a timestamp,
// which Prisma's query API cannot express. Every statement is scoped to one
// shop and bounded by an indexed range.

export type Client = Db | Tx;

export const HOUR_MS = 3_600_000;

/** Ranges per read where one read covers several: a bound on its parameters. */
const RUNS_PER_QUERY = 200;
/** Hours per read of listed buckets. */
const HOURS_PER_QUERY = 1_000;

/** Figures of the dashboard for a bucket (one hour, or a group of them). */
export interface Figures {
  clicks: number;
  sales: number;
  revenue: number;
  commission: number;
  pendingSales: number;
}

export const ZERO: Figures = Object.freeze({ clicks: 0, sales: 0, revenue: 0, commission: 0, pendingSales: 0 });

export function addFigures(a: Figures, b: Figures, sign = 1): Figures {
  return {
    clicks: a.clicks + sign * b.clicks,
    sales: a.sales + sign * b.sales,
    revenue: a.revenue + sign * b.revenue,
    commission: a.commission + sign * b.commission,
    pendingSales: a.pendingSales + sign * b.pendingSales,
  };
}

function hourOf(dialect: Dialect, column: string) {
  return dialect === "sqlite"
    ? `(CAST(strftime('%s', ${column}) AS INTEGER) / 3600)`
    : `CAST(floor(extract(epoch from ${column}) / 3600) AS INTEGER)`;
}

// A credited order counts on the dashboard unless it was denied or voided
// (cancelled); its commission is the sum of its lines (every level, refund
// adjustments included) that are not denied or void.
const COUNTED = `o."affiliateId" IS NOT NULL AND o."status" NOT IN ('denied', 'void')`;
const COMMISSION_OF_ORDER = `(SELECT COALESCE(SUM(c."amount"), 0) FROM "Commission" c WHERE c."orderId" = o."id" AND c."status" NOT IN ('denied', 'void'))`;

function clickRows(dialect: Dialect) {
  return `SELECT ${hourOf(dialect, `k."createdAt"`)} AS h, 1 AS clicks, 0 AS sales, 0 AS revenue, 0 AS commission, 0 AS pend
    FROM "Click" k WHERE k."shopId" = ? AND k."createdAt" >= ? AND k."createdAt" < ?`;
}

const ORDER_RANGE = `o."shopId" = ? AND o."placedAt" >= ? AND o."placedAt" < ?`;

function orderRows(dialect: Dialect, ranges = ORDER_RANGE) {
  return `SELECT ${hourOf(dialect, `o."placedAt"`)} AS h, 0 AS clicks, 1 AS sales, o."subtotal" - o."refundedAmount" AS revenue,
      ${COMMISSION_OF_ORDER} AS commission, CASE WHEN o."status" = 'pending' THEN 1 ELSE 0 END AS pend
    FROM "Order" o WHERE (${ranges}) AND ${COUNTED}`;
}

const SUMS = `SUM(clicks) AS clicks, SUM(sales) AS sales, SUM(revenue) AS revenue, SUM(commission) AS commission, SUM(pend) AS pend`;

export interface HourFigures extends Figures {
  hour: number;
}

/** A result row's figures (columns clicks, sales, revenue, commission, pend). */
function figuresOf(r: Row): Figures {
  return {
    clicks: num(r.clicks),
    sales: num(r.sales),
    revenue: num(r.revenue),
    commission: num(r.commission),
    pendingSales: num(r.pend),
  };
}

function toHourFigures(rows: Row[]): HourFigures[] {
  return rows.map((r) => ({ hour: num(r.g), ...figuresOf(r) }));
}

/** Figures added up by group (g). */
function toGroups(rows: Row[]) {
  const out = new Map<number, Figures>();
  for (const r of rows) out.set(num(r.g), addFigures(out.get(num(r.g)) ?? ZERO, figuresOf(r)));
  return out;
}

/**
 * Figures per UTC hour counted from the source rows in [from, to) (exact
 * instants, not necessarily whole hours). `parts` limits it to clicks or
 * orders.
 */
export function liveHours(
  dialect: Dialect,
  shopId: string,
  from: Date,
  to: Date,
  parts: { clicks: boolean; orders: boolean } = { clicks: true, orders: true },
): Plan<HourFigures[]> {
  if (to.getTime() <= from.getTime() || (!parts.clicks && !parts.orders)) return readsOf([], toHourFigures);
  const selects: string[] = [];
  const params: unknown[] = [];
  if (parts.clicks) {
    selects.push(clickRows(dialect));
    params.push(shopId, from, to);
  }
  if (parts.orders) {
    selects.push(orderRows(dialect));
    params.push(shopId, from, to);
  }
  return readsOf(
    [{ sql: `SELECT h AS g, ${SUMS} FROM (${selects.join(" UNION ALL ")}) t GROUP BY h`, params }],
    toHourFigures,
  );
}

/**
 * Order figures per UTC hour counted from the source rows over runs of whole
 * hours ([fromHour, toHour) each, disjoint, from hourRuns): one read for up
 * to RUNS_PER_QUERY runs (each run an indexed range of (shopId, placedAt))
 * rather than one per run.
 */
export function liveOrderRuns(dialect: Dialect, shopId: string, runs: [number, number][]): Plan<HourFigures[]> {
  const reads = chunksOf(runs, RUNS_PER_QUERY).map((chunk) => ({
    sql: `SELECT h AS g, ${SUMS} FROM (${orderRows(dialect, chunk.map(() => `(${ORDER_RANGE})`).join(" OR "))}) t GROUP BY h`,
    params: chunk.flatMap(([from, to]) => [shopId, new Date(from * HOUR_MS), new Date(to * HOUR_MS)]),
  }));
  return readsOf(reads, toHourFigures);
}

/**
 * Replaces the buckets of hours [fromHour, toHour) with `counted` (what the
 * source rows of those hours add up to, from liveHours; buckets of other
 * hours are left out). Idempotent.
 */
export async function replaceHours(
  client: Client,
  shopId: string,
  fromHour: number,
  toHour: number,
  counted: HourFigures[],
) {
  if (toHour <= fromHour) return;
  const dialect = dialectOf(client);
  await client.$executeRawUnsafe(
    bind(dialect, `DELETE FROM "DashboardHour" WHERE "shopId" = ? AND "hour" >= ? AND "hour" < ?`),
    shopId,
    fromHour,
    toHour,
  );
  await prismaBulk(client, dialect).insertRows(
    "DashboardHour",
    counted
      .filter((b) => b.hour >= fromHour && b.hour < toHour)
      .map((b) => ({
        shopId,
        hour: b.hour,
        clicks: b.clicks,
        sales: b.sales,
        revenue: b.revenue,
        commission: b.commission,
        pendingSales: b.pendingSales,
      })),
  );
}

/** Distinct UTC hours (of placedAt) of the shop's orders created or changed in [since, until). */
export async function changedOrderHours(client: Client, shopId: string, since: Date, until?: Date): Promise<number[]> {
  const dialect = dialectOf(client);
  const rows: Record<string, unknown>[] = await client.$queryRawUnsafe(
    bind(
      dialect,
      `SELECT DISTINCT ${hourOf(dialect, `o."placedAt"`)} AS h FROM "Order" o
       WHERE o."shopId" = ? AND o."updatedAt" >= ?${until ? ` AND o."updatedAt" < ?` : ""}`,
    ),
    ...(until ? [shopId, since, until] : [shopId, since]),
  );
  return rows.map((r) => num(r.h)).sort((a, b) => a - b);
}

export interface GroupSpec {
  /** Minutes per group: 60 (local hours), 1440 (local days). */
  minutes: number;
  /** UTC offsets over the range (see offsetSegments). */
  segments: { fromHour: number; offsetMinutes: number }[];
}

/** SQL for the local group index of a bucket: floor((hour*60 + offset) / minutes). */
function groupExpr(spec: GroupSpec, params: unknown[]) {
  const [first, ...rest] = spec.segments;
  let offset = String(first?.offsetMinutes ?? 0);
  if (rest.length) {
    const whens = [...spec.segments]
      .reverse()
      .slice(0, -1)
      .map((s) => {
        params.push(s.fromHour);
        return `WHEN "hour" >= ? THEN ${Math.trunc(s.offsetMinutes)}`;
      });
    offset = `CASE ${whens.join(" ")} ELSE ${Math.trunc(first!.offsetMinutes)} END`;
  }
  return `(("hour" * 60 + ${offset}) / ${Math.trunc(spec.minutes)})`;
}

/** Rollup figures over hours [fromHour, toHour), grouped by local hour or day. */
export function rollupGroups(shopId: string, fromHour: number, toHour: number, spec: GroupSpec) {
  return rollupGroupsIn(shopId, [[fromHour, toHour]], spec);
}

/**
 * Rollup figures over several disjoint ranges of hours, grouped by local hour
 * or day and added up: one read for up to RUNS_PER_QUERY ranges (each an
 * indexed range of the bucket key) instead of one per range.
 */
export function rollupGroupsIn(
  shopId: string,
  ranges: [number, number][],
  spec: GroupSpec,
): Plan<Map<number, Figures>> {
  const reads = chunksOf(
    ranges.filter(([from, to]) => to > from),
    RUNS_PER_QUERY,
  ).map((chunk) => {
    const params: unknown[] = [];
    const g = groupExpr(spec, params);
    const where = chunk.map(() => `("shopId" = ? AND "hour" >= ? AND "hour" < ?)`).join(" OR ");
    for (const [from, to] of chunk) params.push(shopId, from, to);
    return {
      sql: `SELECT ${g} AS g, SUM("clicks") AS clicks, SUM("sales") AS sales, SUM("revenue") AS revenue,
      SUM("commission") AS commission, SUM("pendingSales") AS pend
    FROM "DashboardHour" WHERE ${where} GROUP BY g`,
      params,
    };
  });
  return readsOf(reads, toGroups);
}

/** Stored buckets of the given hours (to swap dirty hours for live figures). */
export function rollupHours(shopId: string, hours: number[]): Plan<HourFigures[]> {
  const reads = chunksOf(hours, HOURS_PER_QUERY).map((chunk) => ({
    sql: `SELECT "hour" AS g, "clicks" AS clicks, "sales" AS sales, "revenue" AS revenue, "commission" AS commission,
      "pendingSales" AS pend FROM "DashboardHour" WHERE "shopId" = ? AND "hour" IN (${chunk.map(() => "?").join(", ")})`,
    params: [shopId, ...chunk],
  }));
  return readsOf(reads, toHourFigures);
}

/** The largest bucket hour (DashboardHour.hour is a 32-bit integer): the end of "from this hour on". */
export const LAST_HOUR = 2_147_483_647;

/** Pending sales of the stored buckets in ranges of hours ([fromHour, toHour) each, disjoint), added up. */
export function storedPendingIn(shopId: string, ranges: [number, number][]): Plan<number> {
  const reads = chunksOf(
    ranges.filter(([from, to]) => to > from),
    RUNS_PER_QUERY,
  ).map((chunk) => ({
    sql: `SELECT 0 AS g, 0 AS clicks, 0 AS sales, 0 AS revenue, 0 AS commission, SUM("pendingSales") AS pend
      FROM "DashboardHour" WHERE ${chunk.map(() => `("shopId" = ? AND "hour" >= ? AND "hour" < ?)`).join(" OR ")}`,
    params: chunk.flatMap(([from, to]) => [shopId, from, to]),
  }));
  return readsOf(reads, (rows) => rows.reduce((n, r) => n + num(r.pend), 0));
}

/**
 * Credited orders still pending, placed in ranges of instants ([from, to)
 * each, disjoint): the pending figure alone, without the rest of an order's
 * figures (its commission lines).
 */
export function livePendingIn(shopId: string, ranges: [Date, Date][]): Plan<number> {
  const reads = chunksOf(
    ranges.filter(([from, to]) => to.getTime() > from.getTime()),
    RUNS_PER_QUERY,
  ).map((chunk) => ({
    sql: `SELECT 0 AS g, 0 AS clicks, 0 AS sales, 0 AS revenue, 0 AS commission, COUNT(*) AS pend FROM "Order" o
      WHERE (${chunk.map(() => `(${ORDER_RANGE})`).join(" OR ")}) AND o."affiliateId" IS NOT NULL AND o."status" = 'pending'`,
    params: chunk.flatMap(([from, to]) => [shopId, from, to]),
  }));
  return readsOf(reads, (rows) => rows.reduce((n, r) => n + num(r.pend), 0));
}

/** The hour of the shop's first bucket (null: none). */
export function firstBucketHour(shopId: string): Plan<number | null> {
  const sql = `SELECT "hour" AS g, 0 AS clicks, 0 AS sales, 0 AS revenue, 0 AS commission, 0 AS pend
    FROM "DashboardHour" WHERE "shopId" = ? ORDER BY "hour" LIMIT 1`;
  return readsOf([{ sql, params: [shopId] }], (rows) => (rows[0] ? num(rows[0].g) : null));
}

export interface RollupState {
  /** Complete before this instant (null: never built). */
  watermark: Date | null;
  /** SUM(pendingSales) of the buckets when the watermark was set. */
  pendingSales: number;
  /** Whether DashboardDay is built in the zone asked about. */
  daysInZone: boolean;
}

/** The shop's rollup state, with whether its day rows are in `zone`. */
export function rollupState(dialect: Dialect, shopId: string, zone: string): Plan<RollupState> {
  // In the figure columns: g the watermark in epoch milliseconds, clicks 1
  // when the day rows are in `zone`, pend the stored pending total.
  const ms =
    dialect === "sqlite"
      ? `CAST(strftime('%s', "watermark") AS INTEGER) * 1000 + CAST(substr(strftime('%f', "watermark"), 4) AS INTEGER)`
      : `CAST(round(extract(epoch from "watermark") * 1000) AS BIGINT)`;
  const sql = `SELECT ${ms} AS g, CASE WHEN "dayZone" = ? THEN 1 ELSE 0 END AS clicks, 0 AS sales, 0 AS revenue,
      0 AS commission, "pendingSales" AS pend FROM "DashboardRollupState" WHERE "shopId" = ?`;
  return readsOf([{ sql, params: [zone, shopId] }], (rows) => {
    const row = rows[0];
    const ms = row ? num(row.g) : 0;
    return {
      watermark: ms > 0 ? new Date(ms) : null,
      pendingSales: row ? num(row.pend) : 0,
      daysInZone: row ? num(row.clicks) === 1 : false,
    };
  });
}

/**
 * Distinct UTC hours (of placedAt) of the shop's orders created or changed
 * since its rollup's watermark (none when it has none): the watermark is
 * read by the same statement, so this needs no read before it.
 */
export function hoursChangedSinceRollup(dialect: Dialect, shopId: string): Plan<number[]> {
  const sql = `SELECT DISTINCT ${hourOf(dialect, `o."placedAt"`)} AS g, 0 AS clicks, 0 AS sales, 0 AS revenue,
      0 AS commission, 0 AS pend FROM "Order" o WHERE o."shopId" = ? AND o."updatedAt" >= (SELECT s."watermark"
      FROM "DashboardRollupState" s WHERE s."shopId" = ? AND s."watermark" > ?)`;
  return readsOf([{ sql, params: [shopId, shopId, new Date(0)] }], (rows) =>
    rows.map((r) => num(r.g)).sort((x, y) => x - y),
  );
}

/** How many rows `select` (a SELECT of the shop's rows, with `?` placeholders) gives. */
export function countRows(select: string, params: unknown[]): Plan<number> {
  const sql = `SELECT COUNT(*) AS g, 0 AS clicks, 0 AS sales, 0 AS revenue, 0 AS commission, 0 AS pend FROM (${select}) c`;
  return readsOf([{ sql, params }], (rows) => (rows[0] ? num(rows[0].g) : 0));
}

/** Contiguous runs of sorted hours: [3,4,5,9] → [[3,6],[9,10]]. */
export function hourRuns(hours: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const h of [...new Set(hours)].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last[1] === h) last[1] = h + 1;
    else runs.push([h, h + 1]);
  }
  return runs;
}

/** Recomputes DashboardDay rows [fromDay, toDay) from the hour buckets [fromHour, toHour) that make them up. */
export async function recomputeDays(
  client: Client,
  shopId: string,
  days: { fromDay: number; toDay: number; fromHour: number; toHour: number },
  spec: GroupSpec,
) {
  if (days.toDay <= days.fromDay) return;
  const dialect = dialectOf(client);
  await client.$executeRawUnsafe(
    bind(dialect, `DELETE FROM "DashboardDay" WHERE "shopId" = ? AND "day" >= ? AND "day" < ?`),
    shopId,
    days.fromDay,
    days.toDay,
  );
  const params: unknown[] = [];
  const g = groupExpr(spec, params);
  await client.$executeRawUnsafe(
    bind(
      dialect,
      `INSERT INTO "DashboardDay" ("shopId", "day", "clicks", "sales", "revenue", "commission", "pendingSales")
       SELECT CAST(? AS TEXT), ${g} AS g, SUM("clicks"), SUM("sales"), SUM("revenue"), SUM("commission"), SUM("pendingSales")
       FROM "DashboardHour" WHERE "shopId" = ? AND "hour" >= ? AND "hour" < ? GROUP BY g`,
    ),
    shopId,
    ...params,
    shopId,
    days.fromHour,
    days.toHour,
  );
}

/**
 * Stored day rows [fromDay, toDay) but the `exclude`d days, by day index; with
 * `monthStarts` (ascending day indices where local months begin) added up
 * per month in the database and keyed by the month's first day.
 */
export function rollupDays(
  shopId: string,
  fromDay: number,
  toDay: number,
  options: { monthStarts?: number[]; exclude?: number[] } = {},
): Plan<Map<number, Figures>> {
  if (toDay <= fromDay) return readsOf([], toGroups);
  const int = (n: number) => String(Math.trunc(n));
  const exclude = options.exclude ?? [];
  const where = `"shopId" = ? AND "day" >= ? AND "day" < ?${exclude.length ? ` AND "day" NOT IN (${exclude.map(int).join(", ")})` : ""}`;
  const months = options.monthStarts?.length ? [...options.monthStarts].reverse() : null;
  const sql = months
    ? `SELECT CASE ${months.map((m) => `WHEN "day" >= ${int(m)} THEN ${int(m)}`).join(" ")} ELSE ${int(months[months.length - 1]!)} END AS g,
        SUM("clicks") AS clicks, SUM("sales") AS sales, SUM("revenue") AS revenue, SUM("commission") AS commission,
        SUM("pendingSales") AS pend FROM "DashboardDay" WHERE ${where} GROUP BY g`
    : `SELECT "day" AS g, "clicks" AS clicks, "sales" AS sales, "revenue" AS revenue, "commission" AS commission,
        "pendingSales" AS pend FROM "DashboardDay" WHERE ${where}`;
  return readsOf([{ sql, params: [shopId, fromDay, toDay] }], toGroups);
}

// Reads as parts of one statement. Every call through Prisma has a cost of
// its own whatever its SQL (its runtime; for model calls its query compiler
// too; ADR 025), so a page's reads are written as Plans: reads that each
// select the columns g, clicks, sales, revenue, commission, pend (in that
// order, with `?` placeholders), and what their rows make. runPlan runs all of a plan's
// reads as one UNION ALL that tags each row with its read.

export type Row = Record<string, unknown>;

export interface Read {
  sql: string;
  params: unknown[];
}

export interface Plan<T> {
  reads: Read[];
  /** The result from each read's rows (in the order of `reads`). */
  finish: (rows: Row[][]) => T;
}

/** Reads whose rows, all together, make the result (a read split into chunks). */
export function readsOf<T>(reads: Read[], finish: (rows: Row[]) => T): Plan<T> {
  return { reads, finish: (rows) => finish(rows.flat()) };
}

export function mapPlan<A, B>(plan: Plan<A>, f: (value: A) => B): Plan<B> {
  return { reads: plan.reads, finish: (rows) => f(plan.finish(rows)) };
}

/** Several plans as one: the reads of all, the results as a tuple. */
export function allPlans<T extends unknown[]>(plans: [...{ [K in keyof T]: Plan<T[K]> }]): Plan<T> {
  const list = plans as Plan<unknown>[];
  return {
    reads: list.flatMap((p) => p.reads),
    finish: (rows) => {
      let at = 0;
      return list.map((p) => {
        const own = rows.slice(at, at + p.reads.length);
        at += p.reads.length;
        return p.finish(own);
      }) as T;
    },
  };
}

/** Bounds of one statement: SQLite allows 500 terms of a compound SELECT; both databases bound parameters. */
const READS_PER_STATEMENT = 100;
const PARAMS_PER_STATEMENT = 5_000;

/** Runs a plan's reads: one statement unless they are many (a read over the bounds runs alone). */
export async function runPlan<T>(client: Client, plan: Plan<T>): Promise<T> {
  const { reads } = plan;
  const rows: Row[][] = reads.map(() => []);
  const statements: number[][] = [];
  let params = 0;
  reads.forEach((read, i) => {
    const last = statements[statements.length - 1];
    if (last && last.length < READS_PER_STATEMENT && params + read.params.length <= PARAMS_PER_STATEMENT) {
      last.push(i);
      params += read.params.length;
    } else {
      statements.push([i]);
      params = read.params.length;
    }
  });
  const dialect = dialectOf(client);
  await Promise.all(
    statements.map(async (ids) => {
      const sql = ids
        .map((i) => `SELECT ${i} AS q, g, clicks, sales, revenue, commission, pend FROM (${reads[i]!.sql}) t${i}`)
        .join(" UNION ALL ");
      const result = await client.$queryRawUnsafe<Row[]>(bind(dialect, sql), ...ids.flatMap((i) => reads[i]!.params));
      for (const r of result) rows[num(r.q)]!.push(r);
    }),
  );
  return plan.finish(rows);
}

function chunksOf<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
