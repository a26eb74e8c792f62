import { describe, expect, it } from "vitest";
import {
  chartGranularity,
  computePresetRange,
  DATE_PRESETS,
  isDatePreset,
  offsetSegments,
  periodKeys,
  presetRange,
  safeZone,
  type DatePreset,
} from "./date-presets";

const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

type Row = [zone: string, now: string, preset: DatePreset, start: string, end: string];

// [start, end) of each preset in the shop's zone, in UTC.
const CASES: Row[] = [
  // UTC, Sunday 15 March 2026 (weeks start on Monday the 9th).
  ["UTC", "2026-03-15T10:00:00Z", "today", "2026-03-15T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "yesterday", "2026-03-14T00:00:00.000Z", "2026-03-15T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "last7", "2026-03-09T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "last30", "2026-02-14T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "last90", "2025-12-16T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "weekToDate", "2026-03-09T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "monthToDate", "2026-03-01T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "yearToDate", "2026-01-01T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "lastMonth", "2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "lastYear", "2025-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"],
  ["UTC", "2026-03-15T10:00:00Z", "all", "1970-01-01T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
  // A Monday: the week to date is today alone.
  ["America/New_York", "2026-03-16T04:30:00Z", "weekToDate", "2026-03-16T04:00:00.000Z", "2026-03-17T04:00:00.000Z"],
  // New York springs forward on 8 March 2026: a 23-hour day.
  ["America/New_York", "2026-03-08T15:00:00Z", "today", "2026-03-08T05:00:00.000Z", "2026-03-09T04:00:00.000Z"],
  ["America/New_York", "2026-03-08T15:00:00Z", "yesterday", "2026-03-07T05:00:00.000Z", "2026-03-08T05:00:00.000Z"],
  ["America/New_York", "2026-03-09T15:00:00Z", "last7", "2026-03-03T05:00:00.000Z", "2026-03-10T04:00:00.000Z"],
  // ... and falls back on 1 November 2026: a 25-hour day.
  ["America/New_York", "2026-11-01T12:00:00Z", "today", "2026-11-01T04:00:00.000Z", "2026-11-02T05:00:00.000Z"],
  ["America/New_York", "2026-11-02T12:00:00Z", "lastMonth", "2026-10-01T04:00:00.000Z", "2026-11-01T04:00:00.000Z"],
  // Just after midnight local on New Year's Day, still 31 December in UTC.
  ["Asia/Kolkata", "2026-01-01T00:10:00Z", "today", "2025-12-31T18:30:00.000Z", "2026-01-01T18:30:00.000Z"],
  ["Asia/Kolkata", "2026-01-01T00:10:00Z", "yearToDate", "2025-12-31T18:30:00.000Z", "2026-01-01T18:30:00.000Z"],
  ["Asia/Kolkata", "2026-01-01T00:10:00Z", "lastYear", "2024-12-31T18:30:00.000Z", "2025-12-31T18:30:00.000Z"],
  ["Asia/Kathmandu", "2026-06-10T12:00:00Z", "today", "2026-06-09T18:15:00.000Z", "2026-06-10T18:15:00.000Z"],
  // UTC+14: already 1 March locally while it is 28 February in UTC.
  ["Pacific/Kiritimati", "2026-02-28T12:00:00Z", "monthToDate", "2026-02-28T10:00:00.000Z", "2026-03-01T10:00:00.000Z"],
  ["Pacific/Kiritimati", "2026-02-28T12:00:00Z", "lastMonth", "2026-01-31T10:00:00.000Z", "2026-02-28T10:00:00.000Z"],
  // Leap year February; southern-hemisphere DST (Sydney is UTC+11 in January).
  ["UTC", "2024-03-01T12:00:00Z", "lastMonth", "2024-02-01T00:00:00.000Z", "2024-03-01T00:00:00.000Z"],
  ["UTC", "2024-03-01T12:00:00Z", "last7", "2024-02-24T00:00:00.000Z", "2024-03-02T00:00:00.000Z"],
  ["Australia/Sydney", "2026-01-15T00:00:00Z", "today", "2026-01-14T13:00:00.000Z", "2026-01-15T13:00:00.000Z"],
  // An unknown zone falls back to UTC rather than failing the page.
  ["Not/AZone", "2026-03-15T10:00:00Z", "today", "2026-03-15T00:00:00.000Z", "2026-03-16T00:00:00.000Z"],
];

describe("presetRange's per-day cache", () => {
  // Walks instants 37 minutes apart across the spring and autumn clock
  // changes (and a zone with a 45-minute offset, and a bad zone name): the
  // cached answer must equal the uncached one at every instant, including
  // the first minutes after each local midnight.
  const windows = [
    ["2026-03-06T00:00:00Z", "2026-03-10T00:00:00Z"],
    ["2026-03-27T00:00:00Z", "2026-03-31T00:00:00Z"],
    ["2026-10-30T00:00:00Z", "2026-11-03T00:00:00Z"],
    ["2026-12-30T00:00:00Z", "2027-01-02T00:00:00Z"],
  ];
  it.each(["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Pacific/Chatham", "UTC", "Not/AZone"])(
    "%s: every preset matches the uncached calculation",
    (zone) => {
      for (const [from, to] of windows) {
        for (let ms = Date.parse(from!); ms < Date.parse(to!); ms += 37 * 60_000) {
          for (const preset of DATE_PRESETS) {
            expect(presetRange(preset, zone, new Date(ms))).toEqual(
              computePresetRange(preset, zone, new Date(ms), new Date(0)),
            );
          }
        }
      }
    },
  );

  it("hands out new Date objects, so a caller's change does not reach the next call", () => {
    const now = new Date("2026-05-05T12:00:00Z");
    const first = presetRange("last7", "Europe/Berlin", now);
    first.start.setTime(0);
    expect(presetRange("last7", "Europe/Berlin", now).start.toISOString()).toBe("2026-04-28T22:00:00.000Z");
  });
});

describe("presetRange", () => {
  it.each(CASES)("%s at %s: %s", (zone, now, preset, start, end) => {
    const range = presetRange(preset, zone, at(now));
    expect({ start: iso(range.start), end: iso(range.end) }).toEqual({ start, end });
  });

  it("covers every preset of spec section 9, each range non-empty and containing now except last month/year and yesterday", () => {
    expect(DATE_PRESETS).toHaveLength(11);
    const now = at("2026-07-04T16:00:00Z");
    for (const preset of DATE_PRESETS) {
      const { start, end } = presetRange(preset, "Europe/Berlin", now);
      expect(end.getTime()).toBeGreaterThan(start.getTime());
      const containsNow = start <= now && now < end;
      expect(containsNow, preset).toBe(!["yesterday", "lastMonth", "lastYear"].includes(preset));
    }
  });

  it("recognises presets and zones", () => {
    expect(isDatePreset("last30")).toBe(true);
    expect(isDatePreset("last31")).toBe(false);
    expect(isDatePreset(undefined)).toBe(false);
    expect(safeZone("Europe/Paris")).toBe("Europe/Paris");
    expect(safeZone("")).toBe("UTC");
    expect(safeZone("Mars/Olympus")).toBe("UTC");
  });
});

describe("chart periods", () => {
  it("has 23 local hours on the spring-forward day (no 02:00) and 24 keys when an hour repeats", () => {
    const spring = periodKeys(
      presetRange("today", "America/New_York", at("2026-03-08T15:00:00Z")),
      "America/New_York",
      "hour",
    );
    expect(spring).toHaveLength(23);
    expect(spring).not.toContain("2026-03-08T02");
    expect(spring[0]).toBe("2026-03-08T00");
    const fall = periodKeys(
      presetRange("today", "America/New_York", at("2026-11-01T12:00:00Z")),
      "America/New_York",
      "hour",
    );
    expect(fall).toHaveLength(24);
    expect(fall.at(-1)).toBe("2026-11-01T23");
  });

  it("lists local days and months", () => {
    const days = periodKeys(presetRange("last7", "Asia/Kolkata", at("2026-01-01T00:10:00Z")), "Asia/Kolkata", "day");
    expect(days).toEqual([
      "2025-12-26",
      "2025-12-27",
      "2025-12-28",
      "2025-12-29",
      "2025-12-30",
      "2025-12-31",
      "2026-01-01",
    ]);
    const range = { start: at("2024-11-15T00:00:00Z"), end: at("2026-02-01T00:00:00Z") };
    const months = periodKeys(range, "UTC", "month");
    expect(months[0]).toBe("2024-11");
    expect(months.at(-1)).toBe("2026-01");
    expect(months).toHaveLength(15);
  });

  it("draws per hour for a day, per day up to about a year, per month beyond", () => {
    const now = at("2026-07-04T16:00:00Z");
    expect(chartGranularity("today", presetRange("today", "UTC", now))).toBe("hour");
    expect(chartGranularity("lastYear", presetRange("lastYear", "UTC", now))).toBe("day");
    expect(chartGranularity("all", { start: at("2024-01-01T00:00:00Z"), end: now })).toBe("month");
  });

  it("splits offsets where daylight saving changes them", () => {
    const hour = (s: string) => at(s).getTime() / 3_600_000;
    const segments = offsetSegments("America/New_York", hour("2026-01-01T00:00:00Z"), hour("2027-01-01T00:00:00Z"));
    expect(segments).toEqual([
      { fromHour: hour("2026-01-01T00:00:00Z"), offsetMinutes: -300 },
      { fromHour: hour("2026-03-08T07:00:00Z"), offsetMinutes: -240 },
      { fromHour: hour("2026-11-01T06:00:00Z"), offsetMinutes: -300 },
    ]);
    expect(offsetSegments("UTC", 0, 100)).toEqual([{ fromHour: 0, offsetMinutes: 0 }]);
  });
});
