import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { currencyExponent } from "../lib/money";

// Dates, numbers and money as the reader's language writes them (Intl with
// the page's BCP 47 tag): "1.234,56 €" in German, "￥1,234" in Japanese.
// Server and browser format with the same tag and zone, so hydration
// matches. Intl objects are slow to build: each is made once and kept.

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let hit = cache.get(key) as T | undefined;
  if (!hit) {
    hit = make();
    if (cache.size < 2000) cache.set(key, hit);
  }
  return hit;
}

/** Integer minor units as an exact decimal string ("-1234.50"), never through a float. */
export function minorToDecimal(minor: number, exponent: number): string {
  const negative = minor < 0;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, "0");
  const text = exponent > 0 ? `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : digits;
  return negative ? `-${text}` : text;
}

export function formatMoneyIn(tag: string, minor: number, currency: string): string {
  if (!Number.isFinite(minor)) throw new TypeError("formatMoneyIn: amount must be a finite number");
  let format: Intl.NumberFormat;
  try {
    format = cached(`m|${tag}|${currency}`, () => new Intl.NumberFormat(tag, { style: "currency", currency }));
  } catch {
    // Not an ISO 4217 code Intl knows: the number and the code.
    return `${formatNumberIn(tag, minor / 10 ** currencyExponent(currency))} ${currency}`;
  }
  // Intl formats decimal strings exactly (ECMA-402 NumberFormat v3).
  return format.format(minorToDecimal(minor, currencyExponent(currency)) as unknown as number);
}

export function formatNumberIn(tag: string, value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached(`n|${tag}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(tag, options)).format(value);
}

/** A file's size, "1.4 MB" or "12 KB" (never "0 KB"), in the language's digits. */
export function formatFileSizeIn(tag: string, bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1
    ? `${formatNumberIn(tag, mb, { maximumFractionDigits: 1 })} MB`
    : `${formatNumberIn(tag, Math.max(1, bytes / 1024), { maximumFractionDigits: 0 })} KB`;
}

/** The Intl.DateTimeFormat of these options, made once per language and options. */
export function dateTimeFormatIn(tag: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`t|${tag}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(tag, options));
}

const zones = new Map<string, boolean>();

/** The zone itself when Intl knows it, else UTC (a bad value stored long ago must not break a page). */
function validZone(timeZone: string | null | undefined): string {
  if (!timeZone) return "UTC";
  let ok = zones.get(timeZone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone });
      ok = true;
    } catch {
      ok = false;
    }
    if (zones.size < 1000) zones.set(timeZone, ok);
  }
  return ok ? timeZone : "UTC";
}

/** A date (and time) in a zone, in the language's medium style: "23.11.2026", "23 Nov 2026, 14:05". */
export function formatDateIn(tag: string, iso: string | Date, timeZone: string, withTime = false): string {
  const zone = validZone(timeZone);
  const format = cached(
    `d|${tag}|${zone}|${withTime}`,
    () =>
      new Intl.DateTimeFormat(tag, {
        timeZone: zone,
        dateStyle: "medium",
        ...(withTime ? { timeStyle: "short" } : {}),
      }),
  );
  return format.format(typeof iso === "string" ? new Date(iso) : iso);
}

/** Formatters in the page's language (i18next's language is the BCP 47 tag). */
export function useFormat() {
  const { i18n } = useTranslation();
  const tag = i18n.language || "en";
  // One object per language: memoised rows and cells that take it as a prop
  // then skip a parent's re-render (a tab or a dialog opening).
  return useMemo(() => formatterFor(tag), [tag]);
}

function formatterFor(tag: string) {
  return {
    tag,
    money: (minor: number, currency: string) => formatMoneyIn(tag, minor, currency),
    /** Amounts in several currencies, "12,00 € + 5,00 $"; zero in `currency` when there are none. */
    moneyTotals: (totals: readonly { amount: number; currency: string }[], currency: string) =>
      totals.length
        ? totals.map((t) => formatMoneyIn(tag, t.amount, t.currency)).join(" + ")
        : formatMoneyIn(tag, 0, currency),
    number: (value: number, options?: Intl.NumberFormatOptions) => formatNumberIn(tag, value, options),
    date: (iso: string | Date, timeZone: string) => formatDateIn(tag, iso, timeZone),
    dateTime: (iso: string | Date, timeZone: string) => formatDateIn(tag, iso, timeZone, true),
  };
}
