import { localDay } from "../bonuses/bonus-periods";
import { nextDay, startOfShopDay } from "../../lib/shop-day";

// When the shop's scheduled e-mails go out (the "notifications.daily" job):
// every day at SEND_HOUR in the shop's time zone it sends the affiliates'
// payout-method reminders, and the merchant's digest when one is due (daily:
// the day before; weekly: on Mondays, the seven days before). Pure: the job
// and its tests share it.

export const DIGEST_MODES = ["daily", "weekly", "off"] as const;
export type DigestMode = (typeof DIGEST_MODES)[number];
export const DEFAULT_DIGEST: DigestMode = "weekly";

/** Local hour of the run: the start of a working day, when a summary of yesterday is useful. */
export const SEND_HOUR = 8;
/** An affiliate is reminded of a missing payout method at most once in this many days. */
export const REMINDER_EVERY_DAYS = 7;

const HOUR_MS = 3_600_000;

/**
 * The next run strictly after `now`: SEND_HOUR hours after a local midnight
 * (on a day the clocks change this is an hour off the wall clock, which a
 * daily summary does not mind).
 */
export function nextRunAt(timeZone: string, now: Date): Date {
  let day = localDay(now, timeZone);
  for (let i = 0; i < 3; i++) {
    const at = new Date(startOfShopDay(day, timeZone)!.getTime() + SEND_HOUR * HOUR_MS);
    if (at.getTime() > now.getTime()) return at;
    day = nextDay(day);
  }
  throw new Error("unreachable: a day has fewer than 72 hours");
}

function addDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** ISO weekday of a "YYYY-MM-DD" day: 1 = Monday … 7 = Sunday. */
export function weekday(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!)).getUTCDay() || 7;
}

export interface DigestPeriod {
  /** First local day included. */
  first: string;
  /** Last local day included. */
  last: string;
  /** The day after `last` (the period ends at its local midnight). */
  end: string;
}

/** The period a run on local day `today` reports, or null when no digest is due. */
export function digestPeriod(mode: DigestMode, today: string): DigestPeriod | null {
  if (mode === "daily") return { first: addDays(today, -1), last: addDays(today, -1), end: today };
  if (mode === "weekly" && weekday(today) === 1)
    return { first: addDays(today, -7), last: addDays(today, -1), end: today };
  return null;
}

/** The digest mode kept in Shop.settings.mailDigest (anything else reads as the default). */
export function digestModeOf(settings: Record<string, unknown>): DigestMode {
  const value = settings.mailDigest;
  return DIGEST_MODES.includes(value as DigestMode) ? (value as DigestMode) : DEFAULT_DIGEST;
}
