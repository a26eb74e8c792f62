import { getDb } from "../../db.server";
import {
  chartGranularity,
  groupKey,
  groupMinutes,
  firstHourOfDay,
  localDayOfHour,
  localGroupIndex,
  offsetMinutes,
  offsetSegments,
  periodKeys,
  presetRange,
  safeZone,
  type DatePreset,
  type DateRange,
  type Granularity,
} from "../../lib/date-presets";
import {
  HOUR_MS,
  ZERO,
  addFigures,
  changedOrderHours,
  hourRuns,
  liveHours,
  liveOrderRuns,
  rollupDays,
  rollupGroups,
  rollupGroupsIn,
  rollupHours,
  type Client,
  type Figures,
  type GroupSpec,
  type HourFigures,
} from "./rollup-sql.server";

// The dashboard's figures for a date range in the shop's zone (ADR 011):
// the hourly rollup where it is complete, plus live counts of what it does
// not hold yet (the tail after the watermark, hours whose orders changed
// since, and the part-hours at the ends of a range in zones whose offset is
// not whole hours). Tiles are exact; the chart puts a bucket in the local
// period its hour starts in.

export interface SeriesPoint extends Figures {
  key: string;
}

export interface Analytics {
  preset: DatePreset;
  range: { start: string; end: string };
  granularity: Granularity;
  totals: Figures;
  series: SeriesPoint[];
}

const DAY_MINUTES = 1440;

/** What the rollup holds: complete before `watermark`; `dirty` hours had orders change since. */
export interface RollupView {
  watermark: Date | null;
  dirty: number[];
  /** SUM(pendingSales) of the buckets when the watermark was set. */
  pendingSales: number;
  /** The zone DashboardDay rows are in (null: none). */
  dayZone: string | null;
}

export async function readRollupView(client: Client, shopId: string): Promise<RollupView> {
  const row = await client.dashboardRollupState.findUnique({
    where: { shopId },
    select: { watermark: true, pendingSales: true, dayZone: true },
  });
  const watermark = row && row.watermark.getTime() > 0 ? row.watermark : null;
  return {
    watermark,
    dirty: watermark ? await changedOrderHours(client, shopId, watermark) : [],
    pendingSales: row?.pendingSales ?? 0,
    dayZone: row?.dayZone ?? null,
  };
}

/**
 * Figures over [range.start, range.end), keyed by local group index
 * (floor((UTC minutes + offset) / minutes)).
 */
async function collect(
  client: Client,
  shopId: string,
  range: DateRange,
  minutes: number,
  zone: string,
  view: RollupView,
  parts = { clicks: true, orders: true },
  segmentsFrom = 0,
  monthStarts?: number[],
) {
  const s = range.start.getTime();
  const e = range.end.getTime();
  const groups = new Map<number, Figures>();
  const add = (g: number, f: Figures, sign = 1) => groups.set(g, addFigures(groups.get(g) ?? ZERO, f, sign));
  const addHours = (rows: HourFigures[], sign = 1) =>
    rows.forEach((r) => add(localGroupIndex(r.hour * HOUR_MS, zone, minutes), r, sign));

  const firstWhole = Math.ceil(s / HOUR_MS);
  const lastWhole = Math.floor(e / HOUR_MS);
  const complete = view.watermark ? Math.floor(view.watermark.getTime() / HOUR_MS) : firstWhole;
  const rollEnd = Math.min(lastWhole, complete);
  if (rollEnd <= firstWhole) {
    addHours(await liveHours(client, shopId, range.start, range.end, parts));
    return groups;
  }
  const dirty = parts.orders ? view.dirty.filter((h) => h >= firstWhole && h < rollEnd) : [];
  // Offsets only matter where there are buckets (All days starts in 1970).
  const segments = offsetSegments(zone, Math.max(firstWhole, segmentsFrom), rollEnd);
  const [rolled, stale, head, tail, fresh] = await Promise.all([
    minutes === DAY_MINUTES && view.dayZone === zone
      ? byDays(client, shopId, zone, firstWhole, rollEnd, dirty, segments, monthStarts)
      : rollupGroups(client, shopId, firstWhole, rollEnd, { minutes, segments }),
    rollupHours(client, shopId, dirty),
    liveHours(client, shopId, range.start, new Date(firstWhole * HOUR_MS), parts),
    liveHours(client, shopId, new Date(rollEnd * HOUR_MS), range.end, parts),
    liveOrderRuns(client, shopId, hourRuns(dirty)),
  ]);
  for (const [g, f] of rolled) add(g, f);
  // Dirty hours keep their clicks from the rollup; their orders are live.
  addHours(
    stale.map((r) => ({ ...r, clicks: 0 })),
    -1,
  );
  addHours(head);
  addHours(tail);
  addHours(fresh);
  return groups;
}

/**
 * Rollup figures over hours [fromHour, toHour) per local day: whole days
 * from DashboardDay, hour buckets for the part-days at the ends and for days
 * with dirty hours (whose day rows are stale).
 */
async function byDays(
  client: Client,
  shopId: string,
  zone: string,
  fromHour: number,
  toHour: number,
  dirty: number[],
  segments: GroupSpec["segments"],
  monthStarts?: number[],
) {
  let firstDay = localDayOfHour(zone, fromHour);
  if (firstHourOfDay(zone, firstDay) < fromHour) firstDay++;
  const endDay = localDayOfHour(zone, toHour);
  if (endDay <= firstDay) return rollupGroups(client, shopId, fromHour, toHour, { minutes: DAY_MINUTES, segments });
  // Dirty hours in the part-days at the ends are in the hour pieces already.
  const dirtyDays = new Set(dirty.map((h) => localDayOfHour(zone, h)).filter((d) => d >= firstDay && d < endDay));
  const hourPieces: [number, number][] = [
    [fromHour, firstHourOfDay(zone, firstDay)],
    [firstHourOfDay(zone, endDay), toHour],
    ...[...dirtyDays].map((d): [number, number] => [firstHourOfDay(zone, d), firstHourOfDay(zone, d + 1)]),
  ];
  const spec = { minutes: DAY_MINUTES, segments };
  const [days, pieces] = await Promise.all([
    // Days holding a dirty hour come from their hour buckets instead.
    rollupDays(client, shopId, firstDay, endDay, { monthStarts, exclude: [...dirtyDays] }),
    rollupGroupsIn(client, shopId, hourPieces, spec),
  ]);
  const out = new Map<number, Figures>();
  for (const [d, f] of days) out.set(d, f);
  for (const [d, f] of pieces) out.set(d, addFigures(out.get(d) ?? ZERO, f));
  return out;
}

export async function firstActivity(client: Client, shopId: string): Promise<Date | null> {
  const [click, order] = await Promise.all([
    client.click.findFirst({ where: { shopId }, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
    client.order.findFirst({ where: { shopId }, orderBy: { placedAt: "asc" }, select: { placedAt: true } }),
  ]);
  const times = [click?.createdAt, order?.placedAt].filter((d): d is Date => Boolean(d)).map((d) => d.getTime());
  return times.length ? new Date(Math.min(...times)) : null;
}

/** Tiles and chart series for a preset, in the shop's time zone. */
export async function getDashboardAnalytics(
  shop: { id: string; timezone: string },
  preset: DatePreset,
  now = new Date(),
  client: Client = getDb(),
  view?: RollupView,
): Promise<Analytics> {
  const zone = safeZone(shop.timezone);
  const rollup = view ?? (await readRollupView(client, shop.id));
  const range = presetRange(preset, zone, now);
  if (preset !== "all") {
    const granularity = chartGranularity(preset, range);
    const groups = await collect(client, shop.id, range, groupMinutes(granularity), zone, rollup);
    return {
      preset,
      range: isoRange(range),
      granularity,
      ...seriesOf(groups, periodKeys(range, zone, granularity), granularity),
    };
  }
  // All days: every row counts (from 1970); the chart starts on the shop's
  // first active day, and draws months when that is more than ~a year ago.
  const first = await client.dashboardHour.findFirst({
    where: { shopId: shop.id },
    orderBy: { hour: "asc" },
    select: { hour: true },
  });
  // Beyond ~a year the chart is per month: the day rows are added up per
  // month in the database (a few dozen rows back instead of hundreds).
  const span = first ? { start: new Date(first.hour * HOUR_MS), end: range.end } : null;
  const monthStarts =
    span && chartGranularity(preset, span) === "month"
      ? periodKeys(span, zone, "month").map(
          (key) => Date.UTC(Number(key.slice(0, 4)), Number(key.slice(5, 7)) - 1, 1) / 86_400_000,
        )
      : undefined;
  const groups = await collect(
    client,
    shop.id,
    range,
    groupMinutes("day"),
    zone,
    rollup,
    undefined,
    first?.hour ?? 0,
    monthStarts,
  );
  const firstDay = Math.min(...groups.keys(), localGroupIndex(range.end.getTime() - 86_400_000, zone, 1440));
  const dayStart = firstDay * 86_400_000;
  const shown = { start: new Date(Math.max(0, dayStart - offsetMinutes(zone, dayStart) * 60_000)), end: range.end };
  const granularity = chartGranularity(preset, shown);
  return {
    preset,
    range: isoRange(shown),
    granularity,
    ...seriesOf(groups, periodKeys(shown, zone, granularity), granularity),
  };
}

function isoRange(range: DateRange) {
  return { start: range.start.toISOString(), end: range.end.toISOString() };
}

/** Tiles (every group) and chart points (groups by period key). */
function seriesOf(groups: Map<number, Figures>, keys: string[], granularity: Granularity) {
  const series: SeriesPoint[] = keys.map((key) => ({ key, ...ZERO }));
  const index = new Map(series.map((p, i) => [p.key, i]));
  let totals: Figures = ZERO;
  for (const [g, f] of groups) {
    totals = addFigures(totals, f);
    const key = groupKey(g, granularity);
    // A part-hour at either end of the range (zones with :30 and :45
    // offsets) starts in the period before or after: it goes to the edge.
    const i = index.get(key) ?? (series.length && key < series[0]!.key ? 0 : series.length - 1);
    if (i >= 0) series[i] = { ...addFigures(series[i]!, f), key: series[i]!.key };
  }
  return { totals, series };
}

/**
 * Sales still waiting for a decision, over all time: the total stored at the
 * last refresh, with the buckets that changed since (dirty hours, and the
 * hours from the watermark on) swapped for live counts.
 */
export async function countPendingSales(
  shopId: string,
  client: Client = getDb(),
  now = new Date(),
  view?: RollupView,
): Promise<number> {
  const rollup = view ?? (await readRollupView(client, shopId));
  // Orders carry Shopify's placed time, which may run ahead of our clock.
  const future = new Date(now.getTime() + 366 * 86_400_000);
  const orders = { clicks: false, orders: true };
  const sum = (rows: { pendingSales: number }[]) => rows.reduce((n, r) => n + r.pendingSales, 0);
  if (!rollup.watermark) return sum(await liveHours(client, shopId, new Date(0), future, orders));
  const complete = Math.floor(rollup.watermark.getTime() / HOUR_MS);
  const dirty = rollup.dirty.filter((h) => h < complete);
  const [stored, live, fresh] = await Promise.all([
    // The buckets the stored total counted that are stale now: dirty hours
    // and the hours from the watermark on.
    client.dashboardHour.findMany({
      where: { shopId, OR: [{ hour: { in: dirty } }, { hour: { gte: complete } }] },
      select: { pendingSales: true },
    }),
    liveHours(client, shopId, new Date(complete * HOUR_MS), future, orders),
    liveOrderRuns(client, shopId, hourRuns(dirty)),
  ]);
  return rollup.pendingSales - sum(stored) + sum(live) + sum(fresh);
}
