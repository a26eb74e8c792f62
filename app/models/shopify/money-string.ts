import { currencyExponent } from "../../lib/money";

/**
 * Shopify prices are decimal strings ("89.99") or numbers (89.99 in refund
 * subtotals). Converted to integer minor units exactly, without floating
 * point: "89.99" -> 8999 (USD), "1234" -> 1234 (JPY).
 */
export function toMinorUnits(value: string | number | null | undefined, currency: string): number {
  if (value === null || value === undefined || value === "") return 0;
  const text = typeof value === "number" ? value.toFixed(currencyExponent(currency)) : String(value).trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a money amount: ${JSON.stringify(value)}`);
  const exponent = currencyExponent(currency);
  const [, sign, whole, fraction = ""] = match;
  const padded = (fraction + "0".repeat(exponent)).slice(0, exponent);
  // Digits beyond the currency's precision round half-up.
  const extra = fraction.slice(exponent);
  let minor = Number(whole) * 10 ** exponent + Number(padded || "0");
  if (extra && Number(extra[0]) >= 5) minor += 1;
  return sign === "-" ? -minor : minor;
}
