import { describe, expect, it } from "vitest";
import { nextAutoPayAt, shopDay } from "./auto-pay-schedule";

const at = (iso: string) => new Date(iso);

describe("nextAutoPayAt", () => {
  it.each([
    ["off", { mode: "off" as const }, "UTC", "2026-11-24T10:00:00Z", null, null],
    [
      "monthly, day not reached yet",
      { mode: "monthly" as const, day: 28 },
      "UTC",
      "2026-11-24T10:00:00Z",
      null,
      "2026-11-28T06:00:00.000Z",
    ],
    [
      "monthly, day passed: next month",
      { mode: "monthly" as const, day: 1 },
      "UTC",
      "2026-11-24T10:00:00Z",
      null,
      "2026-12-01T06:00:00.000Z",
    ],
    [
      "monthly, over the year end",
      { mode: "monthly" as const, day: 5 },
      "UTC",
      "2026-12-24T10:00:00Z",
      null,
      "2027-01-05T06:00:00.000Z",
    ],
    [
      "monthly, the same day before 06:00",
      { mode: "monthly" as const, day: 24 },
      "UTC",
      "2026-11-24T05:00:00Z",
      null,
      "2026-11-24T06:00:00.000Z",
    ],
    [
      "monthly, in the shop's zone (Tokyo is UTC+9)",
      { mode: "monthly" as const, day: 1 },
      "Asia/Tokyo",
      "2026-11-24T10:00:00Z",
      null,
      "2026-11-30T21:00:00.000Z",
    ],
    [
      "monthly, in New York (UTC-5 in winter)",
      { mode: "monthly" as const, day: 1 },
      "America/New_York",
      "2026-11-24T10:00:00Z",
      null,
      "2026-12-01T11:00:00.000Z",
    ],
    [
      "every 7 days from today",
      { mode: "every" as const, days: 7 },
      "UTC",
      "2026-11-24T10:00:00Z",
      null,
      "2026-12-01T06:00:00.000Z",
    ],
    [
      "every 7 days after the last run",
      { mode: "every" as const, days: 7 },
      "UTC",
      "2026-11-24T10:00:00Z",
      "2026-11-20T06:00:00Z",
      "2026-11-27T06:00:00.000Z",
    ],
    [
      "every 3 days, a stale last run skips ahead",
      { mode: "every" as const, days: 3 },
      "UTC",
      "2026-11-24T10:00:00Z",
      "2026-10-01T06:00:00Z",
      "2026-11-27T06:00:00.000Z",
    ],
  ])("%s", (_name, autoPay, zone, after, last, expected) => {
    const next = nextAutoPayAt(autoPay, zone, at(after), last ? at(last) : null);
    expect(next?.toISOString() ?? null).toBe(expected);
  });

  it("reads the calendar day in the shop's zone", () => {
    expect(shopDay(at("2026-11-24T20:00:00Z"), "Asia/Tokyo")).toBe("2026-11-25");
    expect(shopDay(at("2026-11-24T20:00:00Z"), "Not/AZone")).toBe("2026-11-24");
  });
});
