import { msg } from "../i18n/messages";

// What merchants type (percents like "12.5", amounts like "5.00") and what
// is stored (basis points, minor units), converted as text so no binary
// floating point ever touches money: "0.29" is 29, never 28.999….

// Messages are translation keys (app/i18n/messages.ts); the campaign form,
// which types these, shows them in the admin's language.

export type DecimalParse = { ok: true; value: number } | { ok: false; message: string };

/**
 * Parses a non-negative decimal with at most `decimals` digits after the
 * point into an integer scaled by 10^decimals ("12.5", 2 → 1250). Accepts a
 * comma as the decimal mark and surrounding spaces; refuses signs, exponents,
 * grouping and anything above `max` (in scaled units).
 */
export function parseDecimalInput(text: string, decimals: number, max: number): DecimalParse {
  const trimmed = text.trim().replace(",", ".");
  if (trimmed === "") return { ok: false, message: msg("Global:validation.number") };
  const match = /^(\d{1,12})(?:\.(\d*))?$/.exec(trimmed) ?? /^()\.(\d+)$/.exec(trimmed);
  if (!match) return { ok: false, message: msg("Campaigns:validation.decimal", { example: "12.5" }) };
  const whole = match[1] || "0";
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) {
    return {
      ok: false,
      message:
        decimals === 0 ? msg("Global:validation.whole") : msg("Campaigns:validation.decimals", { count: decimals }),
    };
  }
  const value = Number(whole + fraction.padEnd(decimals, "0"));
  if (!Number.isSafeInteger(value) || value > max) {
    return { ok: false, message: msg("Global:validation.numberMax", { max: formatDecimalInput(max, decimals) }) };
  }
  return { ok: true, value };
}

/** The inverse for form fields: 1250, 2 → "12.5"; 1200, 2 → "12"; 5, 2 → "0.05". */
export function formatDecimalInput(value: number, decimals: number): string {
  const negative = value < 0;
  const digits = String(Math.abs(Math.trunc(value))).padStart(decimals + 1, "0");
  const whole = decimals > 0 ? digits.slice(0, -decimals) : digits;
  const fraction = decimals > 0 ? digits.slice(-decimals).replace(/0+$/, "") : "";
  return (negative ? "-" : "") + whole + (fraction ? `.${fraction}` : "");
}
