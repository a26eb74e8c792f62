import { describe, expect, it } from "vitest";
import { displayZone, formatShopDate, nextDay, startOfShopDay } from "./shop-day";

describe("startOfShopDay", () => {
  it.each([
    ["2025-03-01", "UTC", "2025-03-01T00:00:00.000Z"],
    ["2025-03-01", "America/New_York", "2025-03-01T05:00:00.000Z"],
    ["2025-07-01", "America/New_York", "2025-07-01T04:00:00.000Z"],
    // Daylight saving starts at 02:00 that day in New York; midnight is still EST.
    ["2025-03-09", "America/New_York", "2025-03-09T05:00:00.000Z"],
    ["2025-03-10", "America/New_York", "2025-03-10T04:00:00.000Z"],
    ["2025-01-01", "Asia/Tokyo", "2024-12-31T15:00:00.000Z"],
    ["2025-01-01", "Asia/Kolkata", "2024-12-31T18:30:00.000Z"],
    ["2025-01-01", "Not/AZone", "2025-01-01T00:00:00.000Z"],
  ])("%s in %s starts at %s", (day, zone, iso) => {
    expect(startOfShopDay(day, zone)?.toISOString()).toBe(iso);
  });

  it.each(["2025-02-30", "2025-13-01", "yesterday", "2025-1-1", ""])("refuses %j", (day) => {
    expect(startOfShopDay(day, "UTC")).toBeNull();
  });

  it("steps over month and year ends", () => {
    expect(nextDay("2024-02-28")).toBe("2024-02-29");
    expect(nextDay("2025-12-31")).toBe("2026-01-01");
  });
});

describe("formatShopDate", () => {
  it("shows the day where the shop is, and UTC for an unknown zone", () => {
    expect(formatShopDate("2025-01-01T03:00:00Z", "America/New_York")).toBe("Dec 31, 2024");
    expect(formatShopDate("2025-01-01T03:00:00Z", "Asia/Tokyo")).toBe("Jan 1, 2025");
    expect(formatShopDate("2025-01-01T03:00:00Z", "Not/AZone")).toBe("Jan 1, 2025");
    expect(formatShopDate("2025-01-01T03:00:00Z", "UTC", true)).toMatch(/^Jan 1, 2025, 3:00\sAM$/);
  });
});

describe("displayZone", () => {
  it.each([
    ["Europe/Berlin", "Europe/Berlin"],
    ["Not/AZone", "UTC"],
    ["", "UTC"],
    [null, "UTC"],
  ])("%j is shown as %s", (zone, shown) => {
    expect(displayZone(zone)).toBe(shown);
  });

  it("formats Date objects like ISO strings", () => {
    const at = "2026-01-01T03:30:00Z";
    expect(formatShopDate(new Date(at), "America/Los_Angeles")).toBe(formatShopDate(at, "America/Los_Angeles"));
    expect(formatShopDate(at, "America/Los_Angeles")).toBe("Dec 31, 2025");
  });
});
