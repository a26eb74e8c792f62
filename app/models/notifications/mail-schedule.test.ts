import { describe, expect, it } from "vitest";
import { digestModeOf, digestPeriod, nextRunAt, weekday } from "./mail-schedule";

describe("nextRunAt", () => {
  it.each([
    ["UTC, before 08:00", "UTC", "2026-11-24T07:59:00Z", "2026-11-24T08:00:00.000Z"],
    ["UTC, exactly 08:00 runs the next day", "UTC", "2026-11-24T08:00:00Z", "2026-11-25T08:00:00.000Z"],
    ["New York in winter (UTC-5)", "America/New_York", "2026-11-24T12:00:00Z", "2026-11-24T13:00:00.000Z"],
    ["Tokyo, late local evening", "Asia/Tokyo", "2026-11-24T14:00:00Z", "2026-11-24T23:00:00.000Z"],
    ["an unknown zone counts as UTC", "Mars/Olympus", "2026-11-24T09:00:00Z", "2026-11-25T08:00:00.000Z"],
  ])("%s", (_name, zone, now, expected) => {
    expect(nextRunAt(zone, new Date(now)).toISOString()).toBe(expected);
  });
});

describe("digestPeriod", () => {
  it.each([
    ["daily reports yesterday", "daily", "2026-11-24", { first: "2026-11-23", last: "2026-11-23", end: "2026-11-24" }],
    ["daily across a month", "daily", "2026-12-01", { first: "2026-11-30", last: "2026-11-30", end: "2026-12-01" }],
    [
      "weekly on a Monday: the 7 days before",
      "weekly",
      "2026-11-23",
      { first: "2026-11-16", last: "2026-11-22", end: "2026-11-23" },
    ],
    ["weekly on a Tuesday: nothing", "weekly", "2026-11-24", null],
    ["off: nothing", "off", "2026-11-23", null],
  ] as const)("%s", (_name, mode, today, expected) => {
    expect(digestPeriod(mode, today)).toEqual(expected);
  });

  it("knows the weekday", () => {
    expect(weekday("2026-11-23")).toBe(1);
    expect(weekday("2026-11-29")).toBe(7);
  });

  it("reads the saved mode, else weekly", () => {
    expect(digestModeOf({ mailDigest: "daily" })).toBe("daily");
    expect(digestModeOf({ mailDigest: "hourly" })).toBe("weekly");
    expect(digestModeOf({})).toBe("weekly");
  });
});
