// Spec section 9's date range presets, as UTC day ranges [from, to).
export const DATE_PRESETS = [
  "all",
  "today",
  "yesterday",
  "last_7",
  "last_30",
  "last_90",
  "last_month",
  "last_year",
  "week_to_date",
  "month_to_date",
  "year_to_date",
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export function isDatePreset(value: unknown): value is DatePreset {
  return typeof value === "string" && (DATE_PRESETS as readonly string[]).includes(value);
}

const DAY = 86_400_000;

function startOfDay(t: Date): Date {
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
}

/** The range of a preset at `now`; "all" has no lower bound. "Last N days" ends today, inclusive. */
export function presetRange(preset: DatePreset, now: Date = new Date()): { from: Date | null; to: Date } {
  const today = startOfDay(now);
  const tomorrow = new Date(today.getTime() + DAY);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  switch (preset) {
    case "all":
      return { from: null, to: tomorrow };
    case "today":
      return { from: today, to: tomorrow };
    case "yesterday":
      return { from: new Date(today.getTime() - DAY), to: today };
    case "last_7":
      return { from: new Date(tomorrow.getTime() - 7 * DAY), to: tomorrow };
    case "last_30":
      return { from: new Date(tomorrow.getTime() - 30 * DAY), to: tomorrow };
    case "last_90":
      return { from: new Date(tomorrow.getTime() - 90 * DAY), to: tomorrow };
    case "last_month":
      return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
    case "last_year":
      return { from: new Date(Date.UTC(y - 1, 0, 1)), to: new Date(Date.UTC(y, 0, 1)) };
    case "week_to_date": {
      // Weeks start on Monday.
      const back = (today.getUTCDay() + 6) % 7;
      return { from: new Date(today.getTime() - back * DAY), to: tomorrow };
    }
    case "month_to_date":
      return { from: new Date(Date.UTC(y, m, 1)), to: tomorrow };
    case "year_to_date":
      return { from: new Date(Date.UTC(y, 0, 1)), to: tomorrow };
  }
}

/** Day buckets (YYYY-MM-DD) from `from` to `to`, at most `max` of the most recent days. */
export function dayKeys(from: Date, to: Date, max = 366): string[] {
  const keys: string[] = [];
  const start = Math.max(startOfDay(from).getTime(), to.getTime() - max * DAY);
  for (let t = start; t < to.getTime(); t += DAY) keys.push(new Date(t).toISOString().slice(0, 10));
  return keys;
}
