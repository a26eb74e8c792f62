import { describe, expect, it } from "vitest";
import { closedPeriods, currentPeriod, localDay, nextClose, periodOf } from "./bonus-periods";

describe("periodOf", () => {
  it.each([
    // Berlin leaves summer time on 2026-10-25: October has one hour more.
    [
      "monthly",
      "2026-10-14",
      "Europe/Berlin",
      "monthly:2026-10-01",
      "2026-09-30T22:00:00.000Z",
      "2026-10-31T23:00:00.000Z",
    ],
    // New York starts summer time on 2026-03-08.
    [
      "monthly",
      "2026-03-31",
      "America/New_York",
      "monthly:2026-03-01",
      "2026-03-01T05:00:00.000Z",
      "2026-04-01T04:00:00.000Z",
    ],
    ["quarterly", "2026-05-20", "UTC", "quarterly:2026-04-01", "2026-04-01T00:00:00.000Z", "2026-07-01T00:00:00.000Z"],
    [
      "quarterly",
      "2026-12-31",
      "Asia/Tokyo",
      "quarterly:2026-10-01",
      "2026-09-30T15:00:00.000Z",
      "2026-12-31T15:00:00.000Z",
    ],
    // A week (Monday to Sunday) across the US switch: 167 hours long.
    [
      "weekly",
      "2026-03-08",
      "America/New_York",
      "weekly:2026-03-02",
      "2026-03-02T05:00:00.000Z",
      "2026-03-09T04:00:00.000Z",
    ],
    ["weekly", "2026-01-01", "UTC", "weekly:2025-12-29", "2025-12-29T00:00:00.000Z", "2026-01-05T00:00:00.000Z"],
    // Southern hemisphere: Sydney leaves summer time on 2026-04-05.
    [
      "monthly",
      "2026-04-05",
      "Australia/Sydney",
      "monthly:2026-04-01",
      "2026-03-31T13:00:00.000Z",
      "2026-04-30T14:00:00.000Z",
    ],
    // An unknown zone counts as UTC.
    [
      "monthly",
      "2026-02-10",
      "Mars/Olympus",
      "monthly:2026-02-01",
      "2026-02-01T00:00:00.000Z",
      "2026-03-01T00:00:00.000Z",
    ],
  ] as const)("%s period of %s in %s", (kind, day, zone, key, start, end) => {
    const p = periodOf(kind, day, zone);
    expect(p.key).toBe(key);
    expect(p.start.toISOString()).toBe(start);
    expect(p.end.toISOString()).toBe(end);
  });
});

describe("localDay", () => {
  it.each([
    ["2026-03-31T23:30:00Z", "Europe/Berlin", "2026-04-01"],
    ["2026-03-31T23:30:00Z", "America/Los_Angeles", "2026-03-31"],
    ["2026-01-01T00:00:00Z", "UTC", "2026-01-01"],
  ])("%s in %s is %s", (instant, zone, day) => expect(localDay(new Date(instant), zone)).toBe(day));
});

describe("closedPeriods", () => {
  const monthly = { kind: "recurring", period: "monthly", startsOn: "2026-01-15", endsOn: null } as const;
  it.each([
    // Nothing has closed before the first month ends in the shop's zone.
    [monthly, "2026-01-31T22:59:59Z", "Europe/Berlin", []],
    [monthly, "2026-01-31T23:00:00Z", "Europe/Berlin", ["monthly:2026-01-01"]],
    [monthly, "2026-04-02T00:00:00Z", "UTC", ["monthly:2026-01-01", "monthly:2026-02-01", "monthly:2026-03-01"]],
    [{ ...monthly, endsOn: "2026-02-10" }, "2026-06-01T00:00:00Z", "UTC", ["monthly:2026-01-01", "monthly:2026-02-01"]],
    [
      { kind: "target", period: "monthly", startsOn: "2026-01-01", endsOn: "2026-01-10" },
      "2026-01-10T12:00:00Z",
      "UTC",
      [],
    ],
    [
      { kind: "target", period: "monthly", startsOn: "2026-01-01", endsOn: "2026-01-10" },
      "2026-01-11T00:00:00Z",
      "UTC",
      ["once"],
    ],
  ] as const)("rule %o at %s in %s", (rule, now, zone, keys) => {
    expect(closedPeriods(rule, new Date(now), zone).map((p) => p.key)).toEqual(keys);
  });

  it("clips the first period to the rule's start and the last to its end", () => {
    const [first, second] = closedPeriods(
      { kind: "recurring", period: "monthly", startsOn: "2026-01-15", endsOn: "2026-02-10" },
      new Date("2026-03-01T00:00:00Z"),
      "UTC",
    );
    expect([first!.firstDay, first!.lastDay, second!.firstDay, second!.lastDay]).toEqual([
      "2026-01-15",
      "2026-01-31",
      "2026-02-01",
      "2026-02-10",
    ]);
  });

  it("keeps only the newest periods up to the limit", () => {
    const rule = { kind: "recurring", period: "weekly", startsOn: "2020-01-01", endsOn: null } as const;
    const periods = closedPeriods(rule, new Date("2026-01-01T00:00:00Z"), "UTC", 3);
    expect(periods.map((p) => p.key)).toEqual(["weekly:2025-12-08", "weekly:2025-12-15", "weekly:2025-12-22"]);
  });
});

describe("currentPeriod and nextClose", () => {
  it("is the open month, and the job's next run is when it closes", () => {
    const rule = { kind: "recurring", period: "monthly", startsOn: "2026-01-01", endsOn: null } as const;
    const now = new Date("2026-03-20T10:00:00Z");
    expect(currentPeriod(rule, now, "Europe/Berlin")?.key).toBe("monthly:2026-03-01");
    const weekly = { ...rule, period: "weekly" } as const;
    expect(nextClose([rule, weekly], now, "Europe/Berlin")?.toISOString()).toBe("2026-03-22T23:00:00.000Z");
  });
  it("has no open period for a finished target", () => {
    const rule = { kind: "target", period: "monthly", startsOn: "2026-01-01", endsOn: "2026-01-31" } as const;
    expect(currentPeriod(rule, new Date("2026-02-01T00:00:00Z"), "UTC")).toBeNull();
  });
});
