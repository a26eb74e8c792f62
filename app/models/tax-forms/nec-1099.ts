// Form 1099-NEC per calendar year (docs/decisions/041-tax-forms-and-1099-nec.md):
// a US payee (a current W-9) paid at least the year's threshold in
// nonemployee compensation gets one. Payments made through PayPal are left
// out: PayPal reports them on its own Form 1099-K (IRS instructions for
// Forms 1099-MISC and 1099-NEC, "Payments made with a credit card or
// through a third party network"). Pure: the caller reads the payouts.
// Nothing here is legal advice.

/**
 * Box 1 threshold in US cents by the calendar year the payment was made in.
 * 1099-NEC exists from tax year 2020; $600 through 2025; $2,000 for payments
 * made after 31 December 2025 (Public Law 119-21 of 4 July 2025, the "One
 * Big Beautiful Bill Act", amending IRC section 6041(a)), indexed for
 * inflation after 2026: a year missing here is refused rather than guessed.
 */
export const NEC_THRESHOLDS: Readonly<Record<number, number>> = {
  2020: 60_000,
  2021: 60_000,
  2022: 60_000,
  2023: 60_000,
  2024: 60_000,
  2025: 60_000,
  2026: 200_000,
};

export type ThresholdAnswer = { known: true; cents: number } | { known: false; latestKnownYear: number };

export function necThreshold(year: number): ThresholdAnswer {
  const cents = NEC_THRESHOLDS[year];
  if (cents !== undefined) return { known: true, cents };
  return { known: false, latestKnownYear: Math.max(...Object.keys(NEC_THRESHOLDS).map(Number)) };
}

export interface NecPayment {
  amount: number;
  currency: string;
  method: string;
  paidAt: Date;
}

export interface NecPayee<P> {
  payee: P;
  payments: NecPayment[];
}

export interface NecRow<P> {
  payee: P;
  /** Box 1: the year's non-PayPal payments in US dollars (cents). */
  box1: number;
  /** Paid through PayPal that year (reported by PayPal on Form 1099-K). */
  paypal: number;
  /** Payments in another currency than USD, not added (no rate is kept): the merchant checks them. */
  otherCurrencies: number;
  /** Box 1 reaches the threshold: a 1099-NEC is due. */
  reportable: boolean;
}

export interface NecReport<P> {
  year: number;
  threshold: number;
  rows: NecRow<P>[];
}

const yearOf = (d: Date) => d.getUTCFullYear();

/**
 * The year's totals per US payee, the reportable ones first (then by box 1,
 * largest first). `null` when the year's threshold is not known.
 */
export function necReport<P>(year: number, payees: NecPayee<P>[]): NecReport<P> | null {
  const threshold = necThreshold(year);
  if (!threshold.known) return null;
  const rows = payees.map(({ payee, payments }) => {
    let box1 = 0;
    let paypal = 0;
    let otherCurrencies = 0;
    for (const p of payments) {
      if (yearOf(p.paidAt) !== year) continue;
      if (p.currency !== "USD") otherCurrencies += 1;
      else if (p.method === "paypal") paypal += p.amount;
      else box1 += p.amount;
    }
    return { payee, box1, paypal, otherCurrencies, reportable: box1 >= threshold.cents };
  });
  rows.sort((a, b) => Number(b.reportable) - Number(a.reportable) || b.box1 - a.box1);
  return { year, threshold: threshold.cents, rows };
}

/** Cents as the e-filing services read an amount: "2000.00". */
export const dollars = (cents: number) =>
  `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;
