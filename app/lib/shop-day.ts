// Calendar days in the shop's time zone. A merchant filtering sales "from
// 2025-03-01" means midnight where the shop is, not midnight UTC.

import { formatDateIn } from "../i18n/format";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    if (formatters.size < 100) formatters.set(timeZone, f);
  }
  return f;
}

/** Milliseconds the zone is ahead of UTC at `instant`. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The UTC instant a calendar day ("2025-03-01") starts in `timeZone`, or null
 * for a string that is not a real date. Unknown zones count as UTC.
 */
export function startOfShopDay(day: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const midnightUtc = Date.UTC(y, m - 1, d);
  const check = new Date(midnightUtc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  // Two passes settle days on which the offset changes (daylight saving).
  let instant = midnightUtc - offsetAt(midnightUtc, zone);
  instant = midnightUtc - offsetAt(instant, zone);
  return new Date(instant);
}

/** The day after a "YYYY-MM-DD" day, as "YYYY-MM-DD". */
export function nextDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

/** The zone dates are shown in: the one given, or UTC when it is not a real zone. */
export function displayZone(timeZone: string | null | undefined): string {
  return timeZone && isValidTimeZone(timeZone) ? timeZone : "UTC";
}

/**
 * A date (and time) as the shop (or affiliate) reads it, in the page's
 * language (a BCP 47 tag); the same text on the server and in the browser, so
 * hydration matches. Unknown zones show UTC. Pages that show such dates say
 * which zone (components/TimeZoneNote).
 */
export function formatShopDate(iso: string | Date, timeZone: string, withTime = false, locale = "en"): string {
  return formatDateIn(locale, iso, displayZone(timeZone), withTime);
}
