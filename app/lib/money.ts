// Money is stored as integer minor units with a currency. Display follows the
// shop's Shopify money format, a template such as "${{amount}}" or
// "{{amount_with_comma_separator}} €".

export const DEFAULT_MONEY_FORMAT = "${{amount}}";

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/;

// Building an Intl.NumberFormat is slow (it showed up first in the webhook
// worker's profile), and a shop uses few currencies: remember each answer.
const exponents = new Map<string, number>();

/** Digits after the decimal point for a currency (USD 2, JPY 0, KWD 3). */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    try {
      exponent =
        new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      exponent = 2;
    }
    if (exponents.size < 500) exponents.set(currency, exponent);
  }
  return exponent;
}

function groupThousands(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/**
 * Splits |minor| into whole units and a fraction, rounding half-up (away from
 * zero) when fewer decimals are shown than the currency has.
 */
function toParts(minor: number, exponent: number, decimals: number) {
  const abs = Math.abs(Math.trunc(minor));
  const drop = exponent - decimals;
  const scaled = drop > 0 ? Math.floor((abs + 10 ** drop / 2) / 10 ** drop) : abs * 10 ** -drop;
  const text = String(scaled).padStart(decimals + 1, "0");
  return {
    whole: decimals > 0 ? text.slice(0, -decimals) : text,
    fraction: decimals > 0 ? text.slice(-decimals) : "",
  };
}

function formatNumber(
  minor: number,
  exponent: number,
  decimals: number,
  thousands: string,
  decimalMark: string,
): string {
  const { whole, fraction } = toParts(minor, exponent, decimals);
  return groupThousands(whole, thousands) + (fraction ? decimalMark + fraction : "");
}

/**
 * Formats integer minor units with a Shopify money template. Supported
 * placeholders: amount, amount_no_decimals, amount_with_comma_separator,
 * amount_no_decimals_with_comma_separator. Anything else falls back to
 * "amount" so a bad template never hides a number.
 */
export function formatMoney(minor: number, options: { currency?: string; format?: string | null } = {}): string {
  if (!Number.isFinite(minor)) throw new TypeError("formatMoney: amount must be a finite number");
  const currency = options.currency ?? "USD";
  const template = options.format && PLACEHOLDER.test(options.format) ? options.format : DEFAULT_MONEY_FORMAT;
  const exponent = currencyExponent(currency);
  let nonZero = false;
  const text = template.replace(new RegExp(PLACEHOLDER.source, "g"), (_, name: string) => {
    const number = (() => {
      switch (name) {
        case "amount_no_decimals":
          return formatNumber(minor, exponent, 0, ",", ".");
        case "amount_with_comma_separator":
          return formatNumber(minor, exponent, exponent, ".", ",");
        case "amount_no_decimals_with_comma_separator":
          return formatNumber(minor, exponent, 0, ".", ",");
        case "amount":
        default:
          return formatNumber(minor, exponent, exponent, ",", ".");
      }
    })();
    nonZero ||= /[1-9]/.test(number);
    return number;
  });
  // The sign goes in front of the whole text ("-$19.99"), and only when the
  // amount shown is not zero after rounding.
  return minor < 0 && nonZero ? `-${text}` : text;
}

/**
 * Totals in several currencies, each in its own currency ("$12.00 + 5.00 EUR"):
 * the shop's money template for the shop's currency, the amount and the ISO
 * code for the others (the shop's template has the shop's currency symbol);
 * no totals at all read as zero in the shop's currency.
 */
export function formatMoneyTotals(
  totals: readonly { currency: string; amount: number }[],
  shop: { currency: string; format?: string | null },
): string {
  if (totals.length === 0) return formatMoney(0, shop);
  return totals
    .map((t) =>
      formatMoney(t.amount, {
        currency: t.currency,
        format: t.currency === shop.currency ? shop.format : `{{amount}} ${t.currency}`,
      }),
    )
    .join(" + ");
}
