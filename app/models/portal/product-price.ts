// A product's price as the catalogue keeps it: the lowest of its variants'
// prices (Shopify sends decimal strings such as "19.99" or "1000.0"), in
// integer minor units of the shop's currency, converted as text so no
// binary float touches it. Extra fraction digits round half-up.

/** "19.99", 2 → 1999; "1000.0", 0 → 1000; "0.005", 2 → 1; anything else → null. */
export function decimalToMinor(text: string, exponent: number): number | null {
  const match = /^\s*(\d{1,13})(?:\.(\d{0,12}))?\s*$/.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? "";
  const kept = fraction.slice(0, exponent).padEnd(exponent, "0");
  const roundUp = fraction.length > exponent && Number(fraction[exponent]) >= 5;
  const value = Number(match[1] + kept) + (roundUp ? 1 : 0);
  return Number.isSafeInteger(value) ? value : null;
}

/** The lowest price among the variants' that parse; null when none does. */
export function lowestPriceMinor(prices: readonly (string | null | undefined)[], exponent: number): number | null {
  let lowest: number | null = null;
  for (const price of prices) {
    const minor = price == null ? null : decimalToMinor(price, exponent);
    if (minor !== null && (lowest === null || minor < lowest)) lowest = minor;
  }
  return lowest;
}
