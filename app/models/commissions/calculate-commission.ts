// Pure commission arithmetic on integer minor units. Rounding is half-up per
// commission line (docs/decisions/005-money-and-rounding.md).

/** amount × basisPoints / 10 000, rounded half-up; amount must be >= 0. */
export function percentOf(amountMinor: number, basisPoints: number): number {
  if (!Number.isInteger(amountMinor) || !Number.isInteger(basisPoints)) {
    throw new TypeError("percentOf takes integer minor units and integer basis points");
  }
  if (amountMinor < 0 || basisPoints < 0) throw new RangeError("percentOf takes non-negative values");
  // Integer arithmetic: exact while amount × bps stays below 2^53 (amounts up
  // to about 9 × 10^11 minor units at 100 %).
  return Math.floor((amountMinor * basisPoints + 5_000) / 10_000);
}
