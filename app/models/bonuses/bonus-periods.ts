import { isValidTimeZone, nextDay, startOfShopDay } from "../../lib/shop-day";

// Bonus periods as the shop reads them: a month is the shop's calendar
// month, from local midnight of its first day to local midnight of the next
// month's, whatever daylight saving does in between. Pure: no database.

export type PeriodKind = "weekly" | "monthly" | "quarterly";

export interface Period {
  /** Unique per rule kind and period: "monthly:2026-03-01", or "once" for a target bonus. */
  key: string;
  /** First local day, YYYY-MM-DD. */
  firstDay: string;
  /** Last local day (inclusive), YYYY-MM-DD. */
  lastDay: string;
  /** UTC instants: start inclusive, end exclusive. */
  start: Date;
  end: Date;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The shop's calendar day at an instant, YYYY-MM-DD (unknown zones count as UTC). */
export function localDay(instant: Date, timeZone: string): string {
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  let f = dayFormatters.get(zone);
  if (!f) {
    // en-CA writes dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    if (dayFormatters.size < 100) dayFormatters.set(zone, f);
  }
  return f.format(instant);
}

function ymd(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
}

function parts(day: string): [number, number, number] {
  const [y, m, d] = day.split("-").map(Number);
  return [y!, m! - 1, d!];
}

function previousDay(day: string): string {
  const [y, m, d] = parts(day);
  return ymd(y, m, d - 1);
}

/** The first local day of the period holding `day`; weeks start on Monday (ISO 8601). */
export function periodFirstDay(kind: PeriodKind, day: string): string {
  const [y, m, d] = parts(day);
  if (kind === "monthly") return ymd(y, m, 1);
  if (kind === "quarterly") return ymd(y, m - (m % 3), 1);
  const weekday = (new Date(Date.UTC(y, m, d)).getUTCDay() + 6) % 7; // Monday = 0
  return ymd(y, m, d - weekday);
}

/** The first local day of the period after the one starting on `firstDay`. */
export function nextPeriodFirstDay(kind: PeriodKind, firstDay: string): string {
  const [y, m, d] = parts(firstDay);
  if (kind === "monthly") return ymd(y, m + 1, 1);
  if (kind === "quarterly") return ymd(y, m + 3, 1);
  return ymd(y, m, d + 7);
}

/** A period from its local days (end day exclusive) in the shop's zone. */
export function periodBetween(key: string, firstDay: string, endDayExclusive: string, timeZone: string): Period {
  return {
    key,
    firstDay,
    lastDay: previousDay(endDayExclusive),
    start: startOfShopDay(firstDay, timeZone)!,
    end: startOfShopDay(endDayExclusive, timeZone)!,
  };
}

/** The recurring period holding `day`. */
export function periodOf(kind: PeriodKind, day: string, timeZone: string): Period {
  const first = periodFirstDay(kind, day);
  return periodBetween(`${kind}:${first}`, first, nextPeriodFirstDay(kind, first), timeZone);
}

export interface RuleSchedule {
  kind: "target" | "recurring" | "booster";
  period: PeriodKind;
  startsOn: string;
  endsOn: string | null;
}

/** The one period of a target bonus: startsOn to endsOn inclusive (endsOn is required for targets). */
export function targetPeriod(rule: Pick<RuleSchedule, "startsOn" | "endsOn">, timeZone: string): Period {
  return periodBetween("once", rule.startsOn, nextDay(rule.endsOn ?? rule.startsOn), timeZone);
}

/**
 * The periods of a rule that have closed by `now`, oldest first, at most
 * `limit` of the newest. A recurring period starts counting on the rule's
 * first day, so a rule created mid-month pays for the rest of that month only
 * from its start (its first period is clipped to startsOn); endsOn stops it.
 */
export function closedPeriods(rule: RuleSchedule, now: Date, timeZone: string, limit = 24): Period[] {
  if (rule.kind === "target") {
    const p = targetPeriod(rule, timeZone);
    return p.end.getTime() <= now.getTime() ? [p] : [];
  }
  const out: Period[] = [];
  let first = periodFirstDay(rule.period, rule.startsOn);
  for (;;) {
    const next = nextPeriodFirstDay(rule.period, first);
    if (rule.endsOn && first > rule.endsOn) break;
    const clippedFirst = first < rule.startsOn ? rule.startsOn : first;
    const clippedEnd = rule.endsOn && next > nextDay(rule.endsOn) ? nextDay(rule.endsOn) : next;
    const p = periodBetween(`${rule.period}:${first}`, clippedFirst, clippedEnd, timeZone);
    if (p.end.getTime() > now.getTime()) break;
    out.push(p);
    first = next;
  }
  return out.slice(-limit);
}

/** The period an affiliate is in now (for progress): the open recurring period, or the target's window. */
export function currentPeriod(rule: RuleSchedule, now: Date, timeZone: string): Period | null {
  if (rule.kind === "target") {
    const p = targetPeriod(rule, timeZone);
    return now.getTime() < p.end.getTime() ? p : null;
  }
  const today = localDay(now, timeZone);
  if (rule.endsOn && today > rule.endsOn) return null;
  const p = periodOf(rule.period, today < rule.startsOn ? rule.startsOn : today, timeZone);
  return p;
}

/** When the next period of any of these rules closes (the evaluation job's next run), or null. */
export function nextClose(rules: readonly RuleSchedule[], now: Date, timeZone: string): Date | null {
  let best: Date | null = null;
  for (const rule of rules) {
    const p = currentPeriod(rule, now, timeZone);
    if (p && (!best || p.end < best)) best = p.end;
  }
  return best;
}
