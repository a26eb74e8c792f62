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
  LAST_HOUR,
  ZERO,
  addFigures,
  allPlans,
  firstBucketHour,
  hourRuns,
  hoursChangedSinceRollup,
  liveHours,
  liveOrderRuns,
  livePendingIn,
  mapPlan,
  rollupDays,
  rollupGroups,
  rollupGroupsIn,
  rollupHours,
  rollupState,
  runPlan,
  storedPendingIn,
  type Client,
  type Figures,
  type GroupSpec,
  type HourFigures,
  type Plan,
} from "./rollup-sql.server";
import { dialectOf, type Dialect } from "../../db/dialect";

// The dashboard's figures for a date range in the shop's zone (ADR 011):
// the hourly rollup where it is complete, plus live counts of what it does
// not hold yet (the tail after the watermark, hours whose orders changed
// since, and the part-hours at the ends of a range in zones whose offset is
// not whole hours). Tiles are exact; the chart puts a bucket in the local
// period its hour starts in. Reads are Plans (rollup-sql.server.ts): what the
// rollup holds is one statement, every figure read from it one more.

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
  /** The zone DashboardDay rows are in, when it is the zone the view was read for (null: none, or another). */
  dayZone: string | null;
  /** The hour of the first bucket (null: none). */
  firstHour: number | null;
}

/** The rollup's state, its dirty hours and its first bucket, in one read; `zone` is the shop's. */
export function rollupViewPlan(dialect: Dialect, shopId: string, zone: string): Plan<RollupView> {
  return mapPlan(
    allPlans([rollupState(dialect, shopId, zone), hoursChangedSinceRollup(dialect, shopId), firstBucketHour(shopId)]),
    ([state, dirty, firstHour]) => ({
      watermark: state.watermark,
      dirty: state.watermark ? dirty : [],
      pendingSales: state.pendingSales,
      dayZone: state.daysInZone ? zone : null,
      firstHour,
    }),
  );
}

export function readRollupView(client: Client, shopId: string, zone: string): Promise<RollupView> {
  return runPlan(client, rollupViewPlan(dialectOf(client), shopId, zone));
}

type Groups = Map<number, Figures>;

function addTo(groups: Groups, g: number, f: Figures, sign = 1) {
  groups.set(g, addFigures(groups.get(g) ?? ZERO, f, sign));
}

/**
 * Figures over [range.start, range.end), keyed by local group index
 * (floor((UTC minutes + offset) / minutes)).
 */
function collect(
  dialect: Dialect,
  shopId: string,
  range: DateRange,
  minutes: number,
  zone: string,
  view: RollupView,
  parts = { clicks: true, orders: true },
  segmentsFrom = 0,
  monthStarts?: number[],
): Plan<Groups> {
  const s = range.start.getTime();
  const e = range.end.getTime();
  const addHours = (groups: Groups, rows: HourFigures[], sign = 1) =>
    rows.forEach((r) => addTo(groups, localGroupIndex(r.hour * HOUR_MS, zone, minutes), r, sign));

  const firstWhole = Math.ceil(s / HOUR_MS);
  const lastWhole = Math.floor(e / HOUR_MS);
  const complete = view.watermark ? Math.floor(view.watermark.getTime() / HOUR_MS) : firstWhole;
  const rollEnd = Math.min(lastWhole, complete);
  if (rollEnd <= firstWhole) {
    return mapPlan(liveHours(dialect, shopId, range.start, range.end, parts), (rows) => {
      const groups: Groups = new Map();
      addHours(groups, rows);
      return groups;
    });
  }
  const dirty = parts.orders ? view.dirty.filter((h) => h >= firstWhole && h < rollEnd) : [];
  // Offsets only matter where there are buckets (All days starts in 1970).
  const segments = offsetSegments(zone, Math.max(firstWhole, segmentsFrom), rollEnd);
  return mapPlan(
    allPlans([
      minutes === DAY_MINUTES && view.dayZone === zone
        ? byDays(shopId, zone, firstWhole, rollEnd, dirty, segments, monthStarts)
        : rollupGroups(shopId, firstWhole, rollEnd, { minutes, segments }),
      rollupHours(shopId, dirty),
      liveHours(dialect, shopId, range.start, new Date(firstWhole * HOUR_MS), parts),
      liveHours(dialect, shopId, new Date(rollEnd * HOUR_MS), range.end, parts),
      liveOrderRuns(dialect, shopId, hourRuns(dirty)),
    ]),
    ([rolled, stale, head, tail, fresh]) => {
      const groups: Groups = new Map();
      for (const [g, f] of rolled) addTo(groups, g, f);
      // Dirty hours keep their clicks from the rollup; their orders are live.
      addHours(
        groups,
        stale.map((r) => ({ ...r, clicks: 0 })),
        -1,
      );
      addHours(groups, head);
      addHours(groups, tail);
      addHours(groups, fresh);
      return groups;
    },
  );
}

/**
 * Rollup figures over hours [fromHour, toHour) per local day: whole days
 * from DashboardDay, hour buckets for the part-days at the ends and for days
 * with dirty hours (whose day rows are stale).
 */
function byDays(
  shopId: string,
  zone: string,
  fromHour: number,
  toHour: number,
  dirty: number[],
  segments: GroupSpec["segments"],
  monthStarts?: number[],
): Plan<Groups> {
  let firstDay = localDayOfHour(zone, fromHour);
  if (firstHourOfDay(zone, firstDay) < fromHour) firstDay++;
  const endDay = localDayOfHour(zone, toHour);
  if (endDay <= firstDay) return rollupGroups(shopId, fromHour, toHour, { minutes: DAY_MINUTES, segments });
  // Dirty hours in the part-days at the ends are in the hour pieces already.
  const dirtyDays = new Set(dirty.map((h) => localDayOfHour(zone, h)).filter((d) => d >= firstDay && d < endDay));
  const hourPieces: [number, number][] = [
    [fromHour, firstHourOfDay(zone, firstDay)],
    [firstHourOfDay(zone, endDay), toHour],
    ...[...dirtyDays].map((d): [number, number] => [firstHourOfDay(zone, d), firstHourOfDay(zone, d + 1)]),
  ];
  const spec = { minutes: DAY_MINUTES, segments };
  return mapPlan(
    allPlans([
      // Days holding a dirty hour come from their hour buckets instead.
      rollupDays(shopId, firstDay, endDay, { monthStarts, exclude: [...dirtyDays] }),
      rollupGroupsIn(shopId, hourPieces, spec),
    ]),
    ([days, pieces]) => {
      const out: Groups = new Map(days);
      for (const [d, f] of pieces) addTo(out, d, f);
      return out;
    },
  );
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
  const dialect = dialectOf(client);
  const rollup = view ?? (await readRollupView(client, shop.id, safeZone(shop.timezone)));
  return runPlan(client, analyticsPlan(dialect, shop, preset, now, rollup));
}

/** The reads of getDashboardAnalytics once the rollup's view is known. */
export function analyticsPlan(
  dialect: Dialect,
  shop: { id: string; timezone: string },
  preset: DatePreset,
  now: Date,
  view: RollupView,
): Plan<Analytics> {
  const zone = safeZone(shop.timezone);
  const range = presetRange(preset, zone, now);
  if (preset !== "all") {
    const granularity = chartGranularity(preset, range);
    return mapPlan(collect(dialect, shop.id, range, groupMinutes(granularity), zone, view), (groups) => ({
      preset,
      range: isoRange(range),
      granularity,
      ...seriesOf(groups, periodKeys(range, zone, granularity), granularity),
    }));
  }
  // All days: every row counts (from 1970); the chart starts on the shop's
  // first active day, and draws months when that is more than ~a year ago.
  const first = view.firstHour;
  // Beyond ~a year the chart is per month: the day rows are added up per
  // month in the database (a few dozen rows back instead of hundreds).
  const span = first !== null ? { start: new Date(first * HOUR_MS), end: range.end } : null;
  const monthStarts =
    span && chartGranularity(preset, span) === "month"
      ? periodKeys(span, zone, "month").map(
          (key) => Date.UTC(Number(key.slice(0, 4)), Number(key.slice(5, 7)) - 1, 1) / 86_400_000,
        )
      : undefined;
  return mapPlan(
    collect(dialect, shop.id, range, groupMinutes("day"), zone, view, undefined, first ?? 0, monthStarts),
    (groups) => {
      const firstDay = Math.min(...groups.keys(), localGroupIndex(range.end.getTime() - 86_400_000, zone, 1440));
      const dayStart = firstDay * 86_400_000;
      const shown = {
        start: new Date(Math.max(0, dayStart - offsetMinutes(zone, dayStart) * 60_000)),
        end: range.end,
      };
      const granularity = chartGranularity(preset, shown);
      return {
        preset,
        range: isoRange(shown),
        granularity,
        ...seriesOf(groups, periodKeys(shown, zone, granularity), granularity),
      };
    },
  );
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
  const rollup = view ?? (await readRollupView(client, shopId, "UTC"));
  return runPlan(client, pendingSalesPlan(shopId, now, rollup));
}

/** The reads of countPendingSales once the rollup's view is known. */
export function pendingSalesPlan(shopId: string, now: Date, view: RollupView): Plan<number> {
  // Orders carry Shopify's placed time, which may run ahead of our clock.
  const future = new Date(now.getTime() + 366 * 86_400_000);
  if (!view.watermark) return livePendingIn(shopId, [[new Date(0), future]]);
  const complete = Math.floor(view.watermark.getTime() / HOUR_MS);
  // The buckets the stored total counted that are stale now: dirty hours and
  // the hours from the watermark on, swapped for live counts.
  const dirty = hourRuns(view.dirty.filter((h) => h < complete));
  const instants = (runs: [number, number][]) =>
    runs.map(([from, to]): [Date, Date] => [new Date(from * HOUR_MS), new Date(to * HOUR_MS)]);
  return mapPlan(
    allPlans([
      storedPendingIn(shopId, [...dirty, [complete, LAST_HOUR]]),
      livePendingIn(shopId, [...instants(dirty), [new Date(complete * HOUR_MS), future]]),
    ]),
    ([stored, live]) => view.pendingSales - stored + live,
  );
}
