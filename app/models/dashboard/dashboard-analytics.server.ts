import { DateTime } from "luxon";
import { getDb } from "../../db.server";
import {
  chartGranularity,
  offsetSegments,
  periodsOf,
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
  rollupGroups,
  rollupHours,
  type Client,
  type Figures,
  type HourFigures,
} from "./rollup-sql.server";

// The dashboard's figures for a date range in the shop's zone (ADR 009):
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

interface State {
  watermark: Date | null;
}

const DAY_MINUTES = 1440;

/** Figures over [range.start, range.end) keyed by local group index (floor((hour*60+offset)/minutes)). */
async function collect(client: Client, shopId: string, range: DateRange, minutes: number, zone: string, state: State) {
  const s = range.start.getTime();
  const e = range.end.getTime();
  const groups = new Map<number, Figures>();
  const add = (g: number, f: Figures, sign = 1) => groups.set(g, addFigures(groups.get(g) ?? ZERO, f, sign));
  const offsetCache = new Map<number, number>();
  const groupOfHour = (hour: number) => {
    let off = offsetCache.get(hour);
    if (off === undefined) {
      off = DateTime.fromMillis(hour * HOUR_MS, { zone }).offset;
      offsetCache.set(hour, off);
    }
    return Math.floor((hour * 60 + off) / minutes);
  };
  const addHours = (rows: HourFigures[], sign = 1) => rows.forEach((r) => add(groupOfHour(r.hour), r, sign));

  const firstWhole = Math.ceil(s / HOUR_MS);
  const lastWhole = Math.floor(e / HOUR_MS);
  const complete = state.watermark ? Math.floor(state.watermark.getTime() / HOUR_MS) : firstWhole;
  const rollEnd = Math.min(lastWhole, complete);
  if (rollEnd <= firstWhole) {
    addHours(await liveHours(client, shopId, range.start, range.end));
    return groups;
  }
  const dirty = state.watermark ? (await changedOrderHours(client, shopId, state.watermark)).filter((h) => h >= firstWhole && h < rollEnd) : [];
  const segments = offsetSegments(zone, firstWhole, rollEnd);
  const [rolled, stale, head, tail, ...fresh] = await Promise.all([
    rollupGroups(client, shopId, firstWhole, rollEnd, { minutes, segments }),
    rollupHours(client, shopId, dirty),
    liveHours(client, shopId, range.start, new Date(firstWhole * HOUR_MS)),
    liveHours(client, shopId, new Date(rollEnd * HOUR_MS), range.end),
    ...hourRuns(dirty).map(([from, to]) =>
      liveHours(client, shopId, new Date(from * HOUR_MS), new Date(to * HOUR_MS), { clicks: false, orders: true }),
    ),
  ]);
  for (const [g, f] of rolled) add(g, f);
  // Dirty hours keep their clicks from the rollup; their orders are live.
  addHours(
    stale.map((r) => ({ ...r, clicks: 0 })),
    -1,
  );
  addHours(head);
  addHours(tail);
  for (const rows of fresh) addHours(rows);
  return groups;
}

function keyOfGroup(g: number, minutes: number, granularity: Granularity) {
  const local = DateTime.fromMillis(g * minutes * 60_000, { zone: "UTC" });
  if (granularity === "hour") return local.toFormat("yyyy-MM-dd'T'HH");
  if (granularity === "day") return local.toFormat("yyyy-MM-dd");
  return local.toFormat("yyyy-MM");
}

async function readState(client: Client, shopId: string): Promise<State> {
  const row = await client.dashboardRollupState.findUnique({ where: { shopId }, select: { watermark: true } });
  return { watermark: row && row.watermark.getTime() > 0 ? row.watermark : null };
}

/** Tiles and chart series for a preset, in the shop's time zone. */
export async function getDashboardAnalytics(
  shop: { id: string; timezone: string; createdAt?: Date },
  preset: DatePreset,
  now = new Date(),
  client: Client = getDb(),
): Promise<Analytics & { watermark: Date | null }> {
  const zone = safeZone(shop.timezone);
  const state = await readState(client, shop.id);
  let range = presetRange(preset, zone, now);
  if (preset === "all") {
    // From the shop's first click or order (the chart does not start in 1970).
    const first = await firstActivity(client, shop.id);
    range = { start: new Date(Math.min(first?.getTime() ?? Infinity, range.end.getTime() - 86_400_000)), end: range.end };
  }
  const granularity = chartGranularity(preset, range);
  const minutes = granularity === "hour" ? 60 : DAY_MINUTES;
  const groups = await collect(client, shop.id, range, minutes, zone, state);

  const byKey = new Map<string, Figures>();
  let totals: Figures = ZERO;
  for (const [g, f] of groups) {
    const key = keyOfGroup(g, minutes, granularity);
    byKey.set(key, addFigures(byKey.get(key) ?? ZERO, f));
    totals = addFigures(totals, f);
  }
  const periods = periodsOf(range, zone, granularity);
  const series: SeriesPoint[] = periods.map((p) => ({ key: p.key, ...ZERO }));
  const index = new Map(series.map((p, i) => [p.key, i]));
  for (const [key, f] of byKey) {
    // A part-hour at either end of the range (zones with :30 and :45
    // offsets) starts in the period before or after: it goes to the edge.
    const i = index.get(key) ?? (series.length && key < series[0]!.key ? 0 : series.length - 1);
    if (i >= 0) series[i] = { ...addFigures(series[i]!, f), key: series[i]!.key };
  }
  return {
    preset,
    range: { start: range.start.toISOString(), end: range.end.toISOString() },
    granularity,
    totals,
    series,
    watermark: state.watermark,
  };
}

export async function firstActivity(client: Client, shopId: string): Promise<Date | null> {
  const [click, order] = await Promise.all([
    client.click.findFirst({ where: { shopId }, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
    client.order.findFirst({ where: { shopId }, orderBy: { placedAt: "asc" }, select: { placedAt: true } }),
  ]);
  const times = [click?.createdAt, order?.placedAt].filter((d): d is Date => Boolean(d)).map((d) => d.getTime());
  return times.length ? new Date(Math.min(...times)) : null;
}

/** Sales still waiting for a decision, over all time (the rollup's pending column plus the live part). */
export async function countPendingSales(shopId: string, client: Client = getDb(), now = new Date()): Promise<number> {
  const state = await readState(client, shopId);
  const range = { start: new Date(0), end: new Date(now.getTime() + 366 * 86_400_000) };
  const groups = await collect(client, shopId, range, 1e9, "UTC", state);
  let pending = 0;
  for (const f of groups.values()) pending += f.pendingSales;
  return pending;
}
