import { msg } from "../../../i18n/messages";
import { AppError } from "../../../lib/errors";
import { currencyExponent } from "../../../lib/money";
import { safeCell } from "../../csv/csv-cells";
import type { ConvertedView } from "../converted-view";
import { PLAIN_COLUMNS, WISE_COLUMNS, type PayoutCsvFormat } from "./payout-csv-columns";

// Writing selected payouts as one of the payout CSV formats. Pure: plain
// payout rows in, the table of cells out (header included where the format
// has one). Every cell that a spreadsheet would run as a formula is guarded
// (an affiliate's name or e-mail is theirs to choose).

export interface ExportPayout {
  id: string;
  amount: number; // minor units
  currency: string;
  createdAt: Date;
  /** Paid in the affiliate's currency (ADR 052): the amount sent and the rate, else null. */
  converted?: ConvertedView | null;
  affiliate: { email: string; paypalEmail: string | null; firstName: string; lastName: string };
}

/** Minor units as the plain decimal the payment services read ("1234.50", JPY "1234"). */
export function decimalAmount(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, "0");
  return exponent ? `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : `${sign}${digits}`;
}

function fullName(p: ExportPayout) {
  return `${p.affiliate.firstName} ${p.affiliate.lastName}`.trim();
}

/** What is sent: the converted amount where there is one (PayPal's and Wise's files pay that). */
function sent(p: ExportPayout): { amount: number; currency: string } {
  return p.converted ? { amount: p.converted.amount, currency: p.converted.currency } : p;
}

function rowsOf(format: PayoutCsvFormat, payouts: ExportPayout[], note: string): (string | number)[][] {
  switch (format) {
    case "paypal": {
      const currencies = new Set(payouts.map((p) => sent(p).currency));
      if (currencies.size > 1)
        throw new AppError(
          "validation_failed",
          msg("Payouts:csv.errors.oneCurrency", { currencies: [...currencies].sort().join(", ") }),
        );
      return payouts.map((p) => [
        p.affiliate.paypalEmail || p.affiliate.email,
        decimalAmount(sent(p).amount, sent(p).currency),
        sent(p).currency,
        p.id,
        note,
        "PAYPAL",
      ]);
    }
    case "wise":
      return [
        [...WISE_COLUMNS],
        ...payouts.map((p) => [
          fullName(p) || p.affiliate.email,
          p.affiliate.email,
          p.id,
          "PRIVATE",
          "target",
          decimalAmount(sent(p).amount, sent(p).currency),
          // Wise converts from the shop's money into what the affiliate receives.
          p.currency,
          sent(p).currency,
        ]),
      ];
    case "plain":
      return [
        [...PLAIN_COLUMNS],
        ...payouts.map((p) => [
          p.id,
          p.affiliate.email,
          fullName(p),
          p.affiliate.paypalEmail ?? "",
          decimalAmount(p.amount, p.currency),
          p.currency,
          p.converted ? decimalAmount(p.converted.amount, p.converted.currency) : "",
          p.converted?.currency ?? "",
          p.converted?.rate ?? "",
          p.converted ? `${p.converted.source}${p.converted.by ? `: ${p.converted.by}` : ""}` : "",
          p.converted?.at ?? "",
          p.createdAt.toISOString(),
          "",
          "",
          "",
        ]),
      ];
  }
}

/** The file's cells, header first where the format has one, each guarded against formulas. */
export function payoutCsvTable(
  format: PayoutCsvFormat,
  payouts: ExportPayout[],
  options: { note: string },
): string[][] {
  return rowsOf(format, payouts, options.note).map((row) => row.map(safeCell));
}

/** The download's file name: payouts-{format}-{date}[-{currency}].csv */
export function payoutCsvFileName(format: PayoutCsvFormat, payouts: Pick<ExportPayout, "currency">[], day: string) {
  const currencies = [...new Set(payouts.map((p) => p.currency))];
  const suffix = format === "paypal" && currencies.length === 1 ? `-${currencies[0]!.toLowerCase()}` : "";
  return `payouts-${format}-${day}${suffix}.csv`;
}
