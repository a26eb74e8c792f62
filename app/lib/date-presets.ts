import { DateTime, FixedOffsetZone, IANAZone, type Zone } from "luxon";

// Spec section 9: the dashboard's date range presets, computed in the shop's
// time zone (an IANA name). Every range is half-open, [start, end), in UTC
// instants. Weeks start on Monday (ISO 8601). "Last N days" are N calendar
// days including today, so a sale made a minute ago shows at once.

export const DATE_PRESETS = [
  "all",
  "today",
  "yesterday",
  "last7",
  "last30",
  "last90",
  "lastMonth",
  "lastYear",
  "weekToDate",
  "monthToDate",
  "yearToDate",
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const DEFAULT_PRESET: DatePreset = "last30";

export function isDatePreset(value: unknown): value is DatePreset {
  return typeof value === "string" && (DATE_PRESETS as readonly string[]).includes(value);
}

export interface DateRange {
  start: Date;
  end: Date;
}

/** A zone luxon (Intl) knows, else UTC: a bad stored value must not break the page. */
export function safeZone(zone: string | null | undefined): string {
  if (!zone) return "UTC";
  return zoneObject(zone) === FixedOffsetZone.utcInstance ? "UTC" : zone;
}

/** luxon's zone object for a name (UTC for unknown names), created once. */
function zoneObject(zone: string): Zone {
  let z = zoneObjects.get(zone);
  if (!z) {
    z = IANAZone.isValidZone(zone) ? IANAZone.create(zone) : FixedOffsetZone.utcInstance;
    zoneObjects.set(zone, z);
  }
  return z;
}

const zoneObjects = new Map<string, Zone>();
const hourOffsets = new Map<string, number>();

/**
 * The zone's offset from UTC in minutes at an instant. Offsets at whole
 * hours are remembered: the dashboard asks for the same hours on every load,
 * and each answer costs an Intl formatting call.
 */
export function offsetMinutes(zone: string, ms: number): number {
  const z = zoneObject(zone);
  if (z.isUniversal || ms % 3_600_000 !== 0) return z.offset(ms);
  const key = `${zone}|${ms}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    if (hourOffsets.size > 200_000) hourOffsets.clear();
    offset = z.offset(ms);
    hourOffsets.set(key, offset);
  }
  return offset;
}

/**
 * A preset's range depends only on the shop's local date, so it is computed
 * once per preset, zone and local day: luxon's zone arithmetic (an Intl
 * formatting call per offset) cost the dashboard about a quarter of a
 * millisecond per view. The cached day is [dayStart, dayEnd) in UTC instants;
 * computePresetRange is the uncached calculation.
 */
export function presetRange(preset: DatePreset, zone: string, now: Date, allStart = new Date(0)): DateRange {
  const key = `${preset}|${zone}|${allStart.getTime()}`;
  const ms = now.getTime();
  let hit = rangeCache.get(key);
  if (!hit || ms < hit.dayStart || ms >= hit.dayEnd) {
    if (rangeCache.size > 5_000) rangeCache.clear();
    const today = DateTime.fromJSDate(now, { zone: safeZone(zone) }).startOf("day");
    const range = computePresetRange(preset, zone, now, allStart);
    hit = {
      dayStart: today.toMillis(),
      dayEnd: today.plus({ days: 1 }).toMillis(),
      start: range.start.getTime(),
      end: range.end.getTime(),
    };
    rangeCache.set(key, hit);
  }
  // New Date objects each time: callers may hold or change them.
  return { start: new Date(hit.start), end: new Date(hit.end) };
}

const rangeCache = new Map<string, { dayStart: number; dayEnd: number; start: number; end: number }>();

export function computePresetRange(preset: DatePreset, zone: string, now: Date, allStart: Date): DateRange {
  const local = DateTime.fromJSDate(now, { zone: safeZone(zone) });
  const today = local.startOf("day");
  const tomorrow = today.plus({ days: 1 });
  const span = (from: DateTime, to: DateTime): DateRange => ({ start: from.toJSDate(), end: to.toJSDate() });
  switch (preset) {
    case "all":
      return { start: allStart, end: tomorrow.toJSDate() };
    case "today":
      return span(today, tomorrow);
    case "yesterday":
      return span(today.minus({ days: 1 }), today);
    case "last7":
      return span(today.minus({ days: 6 }), tomorrow);
    case "last30":
      return span(today.minus({ days: 29 }), tomorrow);
    case "last90":
      return span(today.minus({ days: 89 }), tomorrow);
    case "lastMonth": {
      const month = local.startOf("month");
      return span(month.minus({ months: 1 }), month);
    }
    case "lastYear": {
      const year = local.startOf("year");
      return span(year.minus({ years: 1 }), year);
    }
    case "weekToDate":
      return span(local.startOf("week"), tomorrow);
    case "monthToDate":
      return span(local.startOf("month"), tomorrow);
    case "yearToDate":
      return span(local.startOf("year"), tomorrow);
  }
}

export type Granularity = "hour" | "day" | "month";

/** Per hour for one day, per day up to about a year, per month beyond. */
export function chartGranularity(preset: DatePreset, range: DateRange): Granularity {
  if (preset === "today" || preset === "yesterday") return "hour";
  const days = (range.end.getTime() - range.start.getTime()) / 86_400_000;
  return days <= 400 ? "day" : "month";
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Minutes per chart group: local hours, or local days (months add days up). */
export function groupMinutes(granularity: Granularity) {
  return granularity === "hour" ? 60 : 1440;
}

/** Index of the local hour or day an instant falls in: floor((UTC minutes + offset) / minutes). */
export function localGroupIndex(ms: number, zone: string, minutes: number): number {
  return Math.floor((ms / MINUTE_MS + offsetMinutes(zone, ms)) / minutes);
}

/** Key of a local group index: 2026-11-22T14 (hour), 2026-11-22 (day), 2026-11 (month). */
export function groupKey(index: number, granularity: Granularity): string {
  const cache = groupKeys[granularity];
  let key = cache.get(index);
  if (key === undefined) {
    const iso = new Date(index * groupMinutes(granularity) * MINUTE_MS).toISOString();
    key = granularity === "hour" ? iso.slice(0, 13) : granularity === "day" ? iso.slice(0, 10) : iso.slice(0, 7);
    if (cache.size > 100_000) cache.clear();
    cache.set(index, key);
  }
  return key;
}

// Keys by index: the dashboard formats the same days on every load.
const groupKeys: Record<Granularity, Map<number, string>> = { hour: new Map(), day: new Map(), month: new Map() };

/**
 * The local hours, days or months of a range, in order, as keys. A local
 * hour that repeats when clocks go back is one key; one skipped when they go
 * forward has none.
 */
export function periodKeys(range: DateRange, zone: string, granularity: Granularity): string[] {
  const keys: string[] = [];
  const push = (key: string) => {
    if (keys[keys.length - 1] !== key) keys.push(key);
  };
  const start = range.start.getTime();
  const end = range.end.getTime();
  if (end <= start) return keys;
  if (granularity === "hour") {
    for (let t = start; t < end; t += HOUR_MS) push(groupKey(localGroupIndex(t, zone, 60), "hour"));
    return keys;
  }
  const first = localGroupIndex(start, zone, 1440);
  const last = localGroupIndex(end - 1, zone, 1440);
  for (let d = first; d <= last; d++) push(groupKey(d, granularity));
  return keys;
}

export interface OffsetSegment {
  /** First UTC hour (hours since the epoch) the offset applies to. */
  fromHour: number;
  /** Offset from UTC in minutes during the segment. */
  offsetMinutes: number;
}

/**
 * The zone's UTC offsets over [fromHour, toHour), split where daylight saving
 * changes them (at hour starts; every zone changes on a whole hour in UTC).
 * Lets a database group hour buckets by local day with plain arithmetic.
 */
export function offsetSegments(zone: string, fromHour: number, toHour: number): OffsetSegment[] {
  const offsetAt = (hour: number) => offsetMinutes(zone, hour * 3_600_000);
  const segments: OffsetSegment[] = [{ fromHour, offsetMinutes: offsetAt(fromHour) }];
  if (zoneObject(zone).isUniversal) return segments;
  // Offsets change at most a few times a year, months apart: probe weekly,
  // then bisect to the hour.
  const STEP = 7 * 24;
  for (let h = fromHour; h < toHour; h += STEP) {
    const next = Math.min(h + STEP, toHour - 1);
    let current = segments[segments.length - 1]!.offsetMinutes;
    if (offsetAt(next) === current) continue;
    let lo = h;
    let hi = next;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid) === current) lo = mid;
      else hi = mid;
    }
    // Several changes inside one probe step are walked one hour at a time.
    for (let k = hi; k <= next; k++) {
      const o = offsetAt(k);
      if (o !== current) {
        segments.push({ fromHour: k, offsetMinutes: o });
        current = o;
      }
    }
  }
  return segments;
}

/** Local day index (days since 1970-01-01 in the zone) of a UTC hour bucket. */
export function localDayOfHour(zone: string, hour: number): number {
  return localGroupIndex(hour * HOUR_MS, zone, 1440);
}

/** The first UTC hour bucket whose start falls on local day `day`. */
export function firstHourOfDay(zone: string, day: number): number {
  let h = day * 24 - 16;
  while (localDayOfHour(zone, h) < day) h++;
  return h;
}

/** Whether every offset of the zone over [fromHour, toHour) is whole hours (so local days are whole hour buckets). */
export function wholeHourOffsets(zone: string, fromHour: number, toHour: number): boolean {
  return offsetSegments(zone, fromHour, Math.max(fromHour + 1, toHour)).every((s) => s.offsetMinutes % 60 === 0);
}
