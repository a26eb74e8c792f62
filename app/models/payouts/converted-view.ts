// What the screens show of a payout paid in the affiliate's currency (ADR
// 046): the amount received, the rate, who supplied it and when it was true.
// Pure; the reader's language formats it.

export interface ConvertedView {
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
  rate: string;
  source: string;
  by: string | null;
  at: string;
}

export const convertedSelect = {
  payoutCurrency: true,
  payoutAmount: true,
  payoutRate: true,
  payoutRateSource: true,
  payoutRateBy: true,
  payoutRateAt: true,
} as const;

export function convertedView(p: {
  payoutCurrency: string | null;
  payoutAmount: number | null;
  payoutRate: string | null;
  payoutRateSource: string | null;
  payoutRateBy: string | null;
  payoutRateAt: Date | null;
}): ConvertedView | null {
  if (!p.payoutCurrency || p.payoutAmount === null || !p.payoutRate || !p.payoutRateAt) return null;
  return {
    currency: p.payoutCurrency,
    amount: p.payoutAmount,
    rate: p.payoutRate,
    source: p.payoutRateSource ?? "merchant",
    by: p.payoutRateBy,
    at: p.payoutRateAt.toISOString(),
  };
}
