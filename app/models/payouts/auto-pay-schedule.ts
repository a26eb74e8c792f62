import { isValidTimeZone, startOfShopDay } from "../../lib/shop-day";
import type { AutoPay } from "./payment-settings";

// When auto-pay runs next: pure, in the shop's time zone. A run happens at
// 06:00 shop time (the merchant's morning, after the night's approvals):
// "monthly" on day N of each month (1..28, so every month has it), "every"
// N days after the last run (or after today when it never ran).

export const RUN_HOUR = 6;

/** The shop-local calendar day of an instant, "YYYY-MM-DD". */
export function shopDay(instant: Date, timeZone: string): string {
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    instant,
  );
}

function addDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

function runAt(day: string, timeZone: string): Date {
  const start = startOfShopDay(day, timeZone)!;
  return new Date(start.getTime() + RUN_HOUR * 3_600_000);
}

/** The first run strictly after `after`, or null when auto-pay is off. */
export function nextAutoPayAt(autoPay: AutoPay, timeZone: string, after: Date, lastRunAt?: Date | null): Date | null {
  if (autoPay.mode === "off") return null;
  if (autoPay.mode === "monthly") {
    const today = shopDay(after, timeZone);
    const [y, m] = today.split("-").map(Number);
    for (let i = 0; i < 3; i++) {
      const month = new Date(Date.UTC(y!, m! - 1 + i, 1));
      const day = `${month.toISOString().slice(0, 8)}${String(autoPay.day).padStart(2, "0")}`;
      const at = runAt(day, timeZone);
      if (at.getTime() > after.getTime()) return at;
    }
    return null;
  }
  const base = shopDay(lastRunAt ?? after, timeZone);
  let day = addDays(base, autoPay.days);
  let at = runAt(day, timeZone);
  // A schedule changed (or a run missed) long ago: the next one is still in the future.
  while (at.getTime() <= after.getTime()) {
    day = addDays(day, autoPay.days);
    at = runAt(day, timeZone);
  }
  return at;
}
