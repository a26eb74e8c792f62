import { describe, expect, it } from "vitest";
import {
  couponSiteOf,
  DEFAULT_LEAK_SETTINGS,
  detectLeak,
  leakSettingsOf,
  leakSettingsSchema,
  type LeakSettings,
  type WindowOrder,
} from "./detect-leak";

const NOW = new Date("2026-11-28T12:00:00Z");
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

/** n orders, code-only or tracked, an hour apart from `start` hours ago, optionally from a site. */
function orders(
  n: number,
  codeOnly: boolean,
  start = 1,
  referringHost: string | null = null,
  tag = "o",
): WindowOrder[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${tag}${i}`,
    placedAt: hoursAgo(start + i * 0.5),
    codeOnly,
    referringHost,
  }));
}

const cases: {
  name: string;
  settings?: Partial<LeakSettings>;
  orders: WindowOrder[];
  expect: null | { key: "volume" | "site"; values: Record<string, string | number>; count?: number };
}[] = [
  { name: "no orders", orders: [], expect: null },
  { name: "four code-only orders: below the volume", orders: orders(4, true), expect: null },
  {
    name: "five code-only orders, nothing tracked: volume",
    orders: orders(5, true),
    expect: { key: "volume", values: { code: "ANNA10", count: 5, total: 5, share: 100, hours: 24 } },
  },
  {
    name: "five code-only among many tracked: usual for this affiliate",
    orders: [...orders(5, true), ...orders(5, false, 2, null, "t")],
    expect: null,
  },
  {
    name: "five code-only and one tracked: 83 % passes 80 %",
    orders: [...orders(5, true), ...orders(1, false, 2, null, "t")],
    expect: { key: "volume", values: { code: "ANNA10", count: 5, total: 6, share: 83, hours: 24 } },
  },
  {
    name: "orders older than the window do not count",
    orders: [...orders(3, true), ...orders(3, true, 30, null, "old")],
    expect: null,
  },
  {
    name: "a longer window counts them",
    settings: { windowHours: 48 },
    orders: [...orders(3, true), ...orders(3, true, 30, null, "old")],
    expect: { key: "volume", values: { code: "ANNA10", count: 6, total: 6, share: 100, hours: 48 } },
  },
  {
    name: "two code-only orders from a coupon site: source",
    orders: [...orders(2, true, 1, "www.retailmenot.com"), ...orders(3, false, 2, null, "t")],
    expect: { key: "site", values: { code: "ANNA10", count: 2, site: "retailmenot.com", hours: 24 } },
  },
  {
    name: "a subdomain of a listed site matches",
    orders: orders(2, true, 1, "deals.slickdeals.net"),
    expect: { key: "site", values: { code: "ANNA10", count: 2, site: "slickdeals.net", hours: 24 } },
  },
  {
    name: "a tracked order from a coupon site is not a leak",
    orders: orders(3, false, 1, "retailmenot.com"),
    expect: null,
  },
  {
    name: "one site order is below the source threshold",
    orders: orders(1, true, 1, "retailmenot.com"),
    expect: null,
  },
  {
    name: "a merchant-listed site",
    settings: { couponSites: ["bargains.example"] },
    orders: orders(2, true, 1, "bargains.example"),
    expect: { key: "site", values: { code: "ANNA10", count: 2, site: "bargains.example", hours: 24 } },
  },
  {
    name: "source wins over volume when both hold",
    orders: [...orders(3, true, 1, "groupon.com"), ...orders(3, true, 2, null, "x")],
    expect: { key: "site", values: { code: "ANNA10", count: 3, site: "groupon.com", hours: 24 } },
  },
  { name: "switched off", settings: { enabled: false }, orders: orders(50, true), expect: null },
  {
    name: "a lower volume threshold",
    settings: { minOrders: 2, minSharePercent: 50 },
    orders: [...orders(2, true), ...orders(2, false, 2, null, "t")],
    expect: { key: "volume", values: { code: "ANNA10", count: 2, total: 4, share: 50, hours: 24 } },
  },
  { name: "orders in the future (clock skew) are ignored", orders: orders(5, true, -3), expect: null },
];

describe("detectLeak", () => {
  it.each(cases)("$name", ({ settings, orders: list, expect: wanted }) => {
    const decision = detectLeak({ ...DEFAULT_LEAK_SETTINGS, ...settings }, { code: "ANNA10", orders: list, now: NOW });
    if (!wanted) {
      expect(decision).toEqual({ flag: false });
      return;
    }
    expect(decision.flag).toBe(true);
    if (!decision.flag) return;
    expect(decision.reason).toEqual({ key: wanted.key, values: wanted.values });
    // The flag holds exactly the code-only orders of the window, newest first.
    const codeOnly = list.filter((o) => o.codeOnly && o.placedAt >= hoursAgo(settings?.windowHours ?? 24));
    expect(decision.orderIds.sort()).toEqual(codeOnly.map((o) => o.id).sort());
  });

  it("lists at most 200 orders", () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      id: `m${i}`,
      placedAt: new Date(NOW.getTime() - i * 60_000),
      codeOnly: true,
      referringHost: null,
    }));
    const decision = detectLeak(DEFAULT_LEAK_SETTINGS, { code: "X", orders: many, now: NOW });
    expect(decision.flag && decision.orderIds.length).toBe(200);
  });
});

describe("couponSiteOf", () => {
  it.each([
    ["retailmenot.com", "retailmenot.com"],
    ["www.retailmenot.com", "retailmenot.com"],
    ["uk.retailmenot.com", "retailmenot.com"],
    ["notretailmenot.com", null],
    [null, null],
  ])("%s → %s", (h, site) => {
    expect(couponSiteOf(h, DEFAULT_LEAK_SETTINGS.couponSites)).toBe(site);
  });
});

describe("leak settings", () => {
  it("defaults when nothing is stored, or the text is unreadable", () => {
    expect(leakSettingsOf(null)).toEqual(DEFAULT_LEAK_SETTINGS);
    expect(leakSettingsOf("not json")).toEqual(DEFAULT_LEAK_SETTINGS);
    expect(leakSettingsOf(JSON.stringify({ leakWatch: { minOrders: "x" } }))).toEqual(DEFAULT_LEAK_SETTINGS);
  });
  it("keeps stored values", () => {
    expect(leakSettingsOf(JSON.stringify({ leakWatch: { minOrders: 9, enabled: false } }))).toMatchObject({
      minOrders: 9,
      enabled: false,
      windowHours: 24,
    });
  });
  it.each([
    [{ windowHours: 0 }, "windowHours"],
    [{ minOrders: 1 }, "minOrders"],
    [{ minSharePercent: 101 }, "minSharePercent"],
    [{ couponSites: ["not a host"] }, "couponSites"],
  ])("refuses %o", (patch, field) => {
    const parsed = leakSettingsSchema.safeParse({ ...DEFAULT_LEAK_SETTINGS, ...patch });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path[0]).toBe(field);
  });
  it("cleans site hosts", () => {
    const parsed = leakSettingsSchema.parse({
      ...DEFAULT_LEAK_SETTINGS,
      couponSites: [" https://www.Deals.Example/x "],
    });
    expect(parsed.couponSites).toEqual(["deals.example"]);
  });
});
