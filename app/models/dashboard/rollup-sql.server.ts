import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";

// The SQL of the dashboard rollup (ADR 011), for SQLite and PostgreSQL. Raw
// SQL because the work is grouping by an hour computed from a timestamp,
// which Prisma's query API cannot express. Every statement is scoped to one
// shop and bounded by an indexed range.

export type Client = Db | Tx;
export type Dialect = "sqlite" | "postgresql";

export const HOUR_MS = 3_600_000;

/** Ranges per statement where one statement reads several: a bound on its parameters. */
const RUNS_PER_QUERY = 200;

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

export function dialectOf(client: Client): Dialect {
  // Prisma keeps the generated client's provider here; transaction clients
  // forward it.
  return (client as unknown as { _activeProvider?: string })._activeProvider === "postgresql" ? "postgresql" : "sqlite";
}

/** SQL written with `?` placeholders, numbered for PostgreSQL. */
export function bind(dialect: Dialect, sql: string) {
  if (dialect === "sqlite") return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function num(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "bigint") return Number(value);
  return Number(String(value));
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
function figuresOf(r: Record<string, unknown>): Figures {
  return {
    clicks: num(r.clicks),
    sales: num(r.sales),
    revenue: num(r.revenue),
    commission: num(r.commission),
    pendingSales: num(r.pend),
  };
}

function toHourFigures(rows: Record<string, unknown>[]): HourFigures[] {
  return rows.map((r) => ({ hour: num(r.h), ...figuresOf(r) }));
}

/**
 * Figures per UTC hour counted from the source rows in [from, to) (exact
 * instants, not necessarily whole hours). `parts` limits it to clicks or
 * orders.
 */
export async function liveHours(
  client: Client,
  shopId: string,
  from: Date,
  to: Date,
  parts: { clicks: boolean; orders: boolean } = { clicks: true, orders: true },
): Promise<HourFigures[]> {
  if (to.getTime() <= from.getTime() || (!parts.clicks && !parts.orders)) return [];
  const dialect = dialectOf(client);
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
  const sql = `SELECT h, ${SUMS} FROM (${selects.join(" UNION ALL ")}) t GROUP BY h`;
  return toHourFigures(await client.$queryRawUnsafe(bind(dialect, sql), ...params));
}

/**
 * Order figures per UTC hour counted from the source rows over runs of whole
 * hours ([fromHour, toHour) each, disjoint, from hourRuns): one statement for
 * all of them (each run an indexed range of (shopId, placedAt)) rather than
 * one per run, which cost a round trip through Prisma per changed hour.
 */
export async function liveOrderRuns(client: Client, shopId: string, runs: [number, number][]): Promise<HourFigures[]> {
  const dialect = dialectOf(client);
  const chunks: [number, number][][] = [];
  for (let i = 0; i < runs.length; i += RUNS_PER_QUERY) chunks.push(runs.slice(i, i + RUNS_PER_QUERY));
  const results = await Promise.all(
    chunks.map((chunk) => {
      const sql = `SELECT h, ${SUMS} FROM (${orderRows(dialect, chunk.map(() => `(${ORDER_RANGE})`).join(" OR "))}) t GROUP BY h`;
      const params = chunk.flatMap(([from, to]) => [shopId, new Date(from * HOUR_MS), new Date(to * HOUR_MS)]);
      return client.$queryRawUnsafe<Record<string, unknown>[]>(bind(dialect, sql), ...params);
    }),
  );
  return results.flatMap(toHourFigures);
}

/**
 * Recomputes the buckets of hours [fromHour, toHour) from the source rows:
 * deletes them and inserts what the rows add up to now. Idempotent.
 */
export async function recomputeHours(client: Client, shopId: string, fromHour: number, toHour: number) {
  if (toHour <= fromHour) return;
  const dialect = dialectOf(client);
  const from = new Date(fromHour * HOUR_MS);
  const to = new Date(toHour * HOUR_MS);
  await client.$executeRawUnsafe(
    bind(dialect, `DELETE FROM "DashboardHour" WHERE "shopId" = ? AND "hour" >= ? AND "hour" < ?`),
    shopId,
    fromHour,
    toHour,
  );
  await client.$executeRawUnsafe(
    bind(
      dialect,
      `INSERT INTO "DashboardHour" ("shopId", "hour", "clicks", "sales", "revenue", "commission", "pendingSales")
       SELECT CAST(? AS TEXT), h, ${SUMS} FROM (${clickRows(dialect)} UNION ALL ${orderRows(dialect)}) t GROUP BY h`,
    ),
    shopId,
    shopId,
    from,
    to,
    shopId,
    from,
    to,
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
export async function rollupGroups(client: Client, shopId: string, fromHour: number, toHour: number, spec: GroupSpec) {
  return rollupGroupsIn(client, shopId, [[fromHour, toHour]], spec);
}

/**
 * Rollup figures over several disjoint ranges of hours, grouped by local hour
 * or day and added up: one statement for all of them (each range an indexed
 * range of the bucket key) instead of one per range.
 */
export async function rollupGroupsIn(client: Client, shopId: string, ranges: [number, number][], spec: GroupSpec) {
  const out = new Map<number, Figures>();
  const nonEmpty = ranges.filter(([from, to]) => to > from);
  if (!nonEmpty.length) return out;
  const dialect = dialectOf(client);
  const chunks: [number, number][][] = [];
  for (let i = 0; i < nonEmpty.length; i += RUNS_PER_QUERY) chunks.push(nonEmpty.slice(i, i + RUNS_PER_QUERY));
  const results = await Promise.all(
    chunks.map((chunk) => {
      const params: unknown[] = [];
      const g = groupExpr(spec, params);
      const where = chunk.map(() => `("shopId" = ? AND "hour" >= ? AND "hour" < ?)`).join(" OR ");
      const sql = `SELECT ${g} AS g, SUM("clicks") AS clicks, SUM("sales") AS sales, SUM("revenue") AS revenue,
      SUM("commission") AS commission, SUM("pendingSales") AS pend
    FROM "DashboardHour" WHERE ${where} GROUP BY g`;
      for (const [from, to] of chunk) params.push(shopId, from, to);
      return client.$queryRawUnsafe<Record<string, unknown>[]>(bind(dialect, sql), ...params);
    }),
  );
  for (const rows of results)
    for (const r of rows) out.set(num(r.g), addFigures(out.get(num(r.g)) ?? ZERO, figuresOf(r)));
  return out;
}

/** Stored buckets of the given hours (to swap dirty hours for live figures). */
export async function rollupHours(client: Client, shopId: string, hours: number[]): Promise<HourFigures[]> {
  if (!hours.length) return [];
  const dialect = dialectOf(client);
  const sql = `SELECT "hour" AS h, "clicks" AS clicks, "sales" AS sales, "revenue" AS revenue, "commission" AS commission,
      "pendingSales" AS pend FROM "DashboardHour" WHERE "shopId" = ? AND "hour" IN (${hours.map(() => "?").join(", ")})`;
  return toHourFigures(await client.$queryRawUnsafe(bind(dialect, sql), shopId, ...hours));
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
export async function rollupDays(
  client: Client,
  shopId: string,
  fromDay: number,
  toDay: number,
  options: { monthStarts?: number[]; exclude?: number[] } = {},
) {
  const out = new Map<number, Figures>();
  if (toDay <= fromDay) return out;
  const dialect = dialectOf(client);
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
  const rows: Record<string, unknown>[] = await client.$queryRawUnsafe(bind(dialect, sql), shopId, fromDay, toDay);
  for (const r of rows) out.set(num(r.g), figuresOf(r));
  return out;
}
