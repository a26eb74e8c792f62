import { currencyExponent } from "../../lib/money";

// Exchange rates as the app may use them: never invented. A rate is a
// decimal string ("1.3521" = units of the second currency per one unit of
// the first) that someone supplied (Shopify's two amounts on an order, or the
// merchant's own table in Settings › Payment) with the moment it was true.
// Arithmetic runs on BigInt over minor units, so no floating point decides a
// cent. Pure: no Prisma, table-driven tests next to it.

/** Decimal places kept in a stored rate: enough that 1,000,000.00 converts to the cent. */
export const RATE_DECIMALS = 8;

const RATE_TEXT = /^(\d{1,12})(?:\.(\d{1,12}))?$/;

/** Whether a text is a positive rate the app can compute with. */
export function isRate(text: string): boolean {
  const m = RATE_TEXT.exec(text.trim());
  return !!m && /[1-9]/.test(`${m[1]}${m[2] ?? ""}`);
}

/** A rate as an integer count of 10^-RATE_DECIMALS (rounded half-up). */
function rateUnits(rate: string): bigint {
  const m = RATE_TEXT.exec(rate.trim());
  if (!m) throw new Error(`not a rate: ${JSON.stringify(rate)}`);
  const fraction = (m[2] ?? "").padEnd(RATE_DECIMALS + 1, "0");
  const units = BigInt(m[1]!) * 10n ** BigInt(RATE_DECIMALS) + BigInt(fraction.slice(0, RATE_DECIMALS));
  return Number(fraction[RATE_DECIMALS]) >= 5 ? units + 1n : units;
}

/** n / d rounded half away from zero (d > 0). */
function divideRounded(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const q = (abs * 2n + d) / (2n * d);
  return negative ? -q : q;
}

function formatRate(units: bigint): string {
  const text = units.toString().padStart(RATE_DECIMALS + 1, "0");
  const whole = text.slice(0, -RATE_DECIMALS);
  const fraction = text.slice(-RATE_DECIMALS).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

export interface Money {
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
}

/**
 * The rate two amounts of the same value imply (Shopify's shop money and
 * presentment money of one order): units of `to` per one unit of `from`.
 * Null when `from` is zero or the signs differ: no rate can be read.
 */
export function impliedRate(from: Money, to: Money, exponentOf = currencyExponent): string | null {
  if (from.amount === 0 || Math.sign(from.amount) !== Math.sign(to.amount)) return null;
  const fe = BigInt(exponentOf(from.currency));
  const te = BigInt(exponentOf(to.currency));
  // (to / 10^te) / (from / 10^fe), kept as units of 10^-RATE_DECIMALS.
  const n = BigInt(Math.abs(to.amount)) * 10n ** fe * 10n ** BigInt(RATE_DECIMALS);
  const d = BigInt(Math.abs(from.amount)) * 10n ** te;
  return formatRate(divideRounded(n, d));
}

/**
 * `amount` (minor units of `from`) in `to` at `rate` (units of `to` per unit
 * of `from`), in minor units of `to` by `exponentOf` (PayPal's digits for a
 * PayPal item: paypalExponent), rounded half away from zero.
 */
export function convertMinor(
  amount: number,
  from: string,
  to: string,
  rate: string,
  exponentOf: (currency: string) => number = currencyExponent,
): number {
  if (from === to) return amount;
  const fe = BigInt(exponentOf(from));
  const te = BigInt(exponentOf(to));
  const n = BigInt(amount) * rateUnits(rate) * 10n ** te;
  const d = 10n ** fe * 10n ** BigInt(RATE_DECIMALS);
  return Number(divideRounded(n, d));
}

// PayPal's currency codes for payouts and the ones it takes without
// decimals (its REST "currency codes" page: HUF, JPY and TWD "do not support
// decimals"), whatever the ICU data of the running Node says (ISO 4217
// gives HUF and TWD two digits; some ICU versions give them none).
export const PAYPAL_CURRENCIES = [
  "AUD",
  "BRL",
  "CAD",
  "CNY",
  "CZK",
  "DKK",
  "EUR",
  "HKD",
  "HUF",
  "ILS",
  "JPY",
  "MYR",
  "MXN",
  "TWD",
  "NZD",
  "NOK",
  "PHP",
  "PLN",
  "GBP",
  "SGD",
  "SEK",
  "CHF",
  "THB",
  "USD",
] as const;
const PAYPAL_WHOLE_UNITS = new Set(["HUF", "JPY", "TWD"]);

/** Digits after the decimal point PayPal accepts for a currency. */
export function paypalExponent(currency: string): number {
  return PAYPAL_WHOLE_UNITS.has(currency.toUpperCase()) ? 0 : currencyExponent(currency.toUpperCase());
}

export interface RateEntry {
  /** Currency converted from (the shop's) and to (the payout's). */
  from: string;
  to: string;
  rate: string;
  /** When the rate was true (ISO 8601), as its source said. */
  at: string;
  /** Who supplied it: "merchant" (Settings › Payment) or a provider's name. */
  source: string;
}

export type RateAnswer<E extends RateEntry = RateEntry> =
  | { ok: true; rate: string; at: string; source: string; entry: E }
  | { ok: false; reason: "rate_missing" | "rate_stale"; values: Record<string, string> };

/**
 * The rate to pay `from` → `to` with at `now`: the newest entry for the pair
 * that is no older than `maxAgeHours`. Never derived from the inverse or a
 * third currency: a payout without a fresh rate waits, with the reason.
 */
export function rateFor<E extends RateEntry>(
  entries: readonly E[],
  from: string,
  to: string,
  now: Date,
  maxAgeHours: number,
): RateAnswer<E> {
  const pair = entries
    .filter((e) => e.from === from && e.to === to && isRate(e.rate) && !Number.isNaN(Date.parse(e.at)))
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  const newest = pair[0];
  if (!newest) return { ok: false, reason: "rate_missing", values: { from, to } };
  const ageHours = (now.getTime() - Date.parse(newest.at)) / 3_600_000;
  if (ageHours > maxAgeHours) return { ok: false, reason: "rate_stale", values: { from, to, at: newest.at } };
  return { ok: true, rate: newest.rate, at: newest.at, source: newest.source, entry: newest };
}
