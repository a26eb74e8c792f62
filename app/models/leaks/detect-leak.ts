import { z } from "zod";
import { msg } from "../../i18n/messages";

// Leak watch (ADR 051), pure: given the recent orders credited to one
// affiliate, decide whether their discount code has leaked. A "code-only"
// order used the affiliate's code with no other signal (no click, no cart
// attribute, no pixel report, no known customer link). A leak is either
// volume (many code-only orders in the window, making up most of the
// affiliate's orders) or source (code-only orders referred by a coupon or
// deal site). The reason is a key of Sales:leaks.reasons.* and its values
// (ADR 043); the job (check-leak.server.ts) gathers the orders and writes.

export interface LeakSettings {
  enabled: boolean;
  /** The window looked at, in hours. */
  windowHours: number;
  /** Volume: at least this many code-only orders in the window… */
  minOrders: number;
  /** …making up at least this share (percent) of the affiliate's orders in the window. */
  minSharePercent: number;
  /** Source: at least this many code-only orders referred by a listed site. */
  minSiteOrders: number;
  /** Coupon and deal sites (hosts; subdomains match too). */
  couponSites: string[];
}

export const DEFAULT_COUPON_SITES = [
  "retailmenot.com",
  "couponfollow.com",
  "joinhoney.com",
  "slickdeals.net",
  "dealspotr.com",
  "wethrift.com",
  "knoji.com",
  "couponbirds.com",
  "coupons.com",
  "groupon.com",
];

export const DEFAULT_LEAK_SETTINGS: LeakSettings = {
  enabled: true,
  windowHours: 24,
  minOrders: 5,
  minSharePercent: 80,
  minSiteOrders: 2,
  couponSites: DEFAULT_COUPON_SITES,
};

const host = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .transform((h) =>
    h
      .replace(/^https?:\/\//, "")
      .replace(/\/.*$/, "")
      .replace(/^www\./, ""),
  )
  .refine((h) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(h), { message: msg("Settings.Marketings:leaks.validation.host") });

/** Settings › Marketings › Leak watch as posted (and as stored): one schema for the card, the action and the reader. */
export const leakSettingsSchema = z.object({
  enabled: z.boolean(),
  windowHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30),
  minOrders: z.number().int().min(2).max(10_000),
  minSharePercent: z.number().int().min(0).max(100),
  minSiteOrders: z.number().int().min(1).max(10_000),
  couponSites: z.array(host).max(100, msg("Settings.Marketings:leaks.validation.sites", { max: 100 })),
});

/** The stored settings (Shop.settings.leakWatch), defaults where missing or unreadable. */
export function leakSettingsOf(settingsText: string | null | undefined): LeakSettings {
  let stored: unknown;
  try {
    stored = (JSON.parse(settingsText || "{}") as Record<string, unknown>).leakWatch;
  } catch {
    stored = undefined;
  }
  const parsed = leakSettingsSchema.partial().safeParse(stored ?? {});
  return { ...DEFAULT_LEAK_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

export interface WindowOrder {
  id: string;
  placedAt: Date;
  /** The affiliate's code was the only signal of this order. */
  codeOnly: boolean;
  /** Host of the order's referring site, when Shopify sent one. */
  referringHost: string | null;
}

export interface LeakReason {
  key: "volume" | "site";
  values: Record<string, string | number>;
}

export type LeakDecision = { flag: false } | { flag: true; reason: LeakReason; orderIds: string[] };

/** The most orders a flag lists (and holds). */
export const MAX_FLAG_ORDERS = 200;

/** A listed coupon site the host is, or is a subdomain of; null when none. */
export function couponSiteOf(hostName: string | null, sites: readonly string[]): string | null {
  if (!hostName) return null;
  const h = hostName.toLowerCase().replace(/^www\./, "");
  return sites.find((s) => h === s || h.endsWith(`.${s}`)) ?? null;
}

export function detectLeak(
  settings: LeakSettings,
  input: { code: string; orders: readonly WindowOrder[]; now: Date },
): LeakDecision {
  if (!settings.enabled) return { flag: false };
  const since = input.now.getTime() - settings.windowHours * 3_600_000;
  const inWindow = input.orders.filter((o) => o.placedAt.getTime() >= since && o.placedAt <= input.now);
  const codeOnly = inWindow.filter((o) => o.codeOnly);
  if (codeOnly.length === 0) return { flag: false };
  const ids = codeOnly
    .slice()
    .sort((a, b) => b.placedAt.getTime() - a.placedAt.getTime())
    .slice(0, MAX_FLAG_ORDERS)
    .map((o) => o.id);

  // Source: code-only orders referred by listed coupon sites (the busiest site is named).
  const bySite = new Map<string, number>();
  for (const o of codeOnly) {
    const site = couponSiteOf(o.referringHost, settings.couponSites);
    if (site) bySite.set(site, (bySite.get(site) ?? 0) + 1);
  }
  const fromSites = [...bySite.values()].reduce((a, b) => a + b, 0);
  if (fromSites >= settings.minSiteOrders) {
    const [site] = [...bySite].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    return {
      flag: true,
      reason: { key: "site", values: { code: input.code, count: fromSites, site, hours: settings.windowHours } },
      orderIds: ids,
    };
  }

  // Volume: many code-only orders, most of the affiliate's orders in the window.
  const share = Math.floor((codeOnly.length * 100) / inWindow.length);
  if (codeOnly.length >= settings.minOrders && share >= settings.minSharePercent) {
    return {
      flag: true,
      reason: {
        key: "volume",
        values: {
          code: input.code,
          count: codeOnly.length,
          total: inWindow.length,
          share,
          hours: settings.windowHours,
        },
      },
      orderIds: ids,
    };
  }
  return { flag: false };
}

/** The signals a code-only order lacked, as keys of Sales:leaks.signals.* (always all four, by definition). */
export const MISSING_SIGNALS = ["click", "cartAttribute", "pixel", "customerLink"] as const;
