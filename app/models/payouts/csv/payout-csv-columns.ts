// The payout CSV formats and the columns of the paid-payouts import, shared by
// the browser (export menu, import help) and the server.

/**
 * - paypal: PayPal Payouts Web's payment file (no header row; recipient,
 *   amount, currency, customer id, note to recipient, wallet), one currency
 *   per file as PayPal requires.
 * - wise: Wise's "send by e-mail" batch template (a header row of Wise's
 *   column names).
 * - plain: every detail with empty reference / paid_at / note columns, the
 *   sheet the merchant fills in and imports back to mark the payouts paid.
 */
export const PAYOUT_CSV_FORMATS = ["paypal", "wise", "plain"] as const;
export type PayoutCsvFormat = (typeof PAYOUT_CSV_FORMATS)[number];

export const WISE_COLUMNS = [
  "name",
  "recipientEmail",
  "paymentReference",
  "receiverType",
  "amountCurrency",
  "amount",
  "sourceCurrency",
  "targetCurrency",
] as const;

// Written by the plain export and read back by the import.
export const PAID_IMPORT_COLUMNS = ["payout_id", "reference", "paid_at", "note"] as const;
export const PAID_IMPORT_REQUIRED = ["payout_id", "reference"] as const;
// Written by the plain export for the merchant's eyes, ignored by the import.
export const PLAIN_EXPORT_ONLY_COLUMNS = [
  "affiliate_email",
  "affiliate_name",
  "paypal_email",
  "amount",
  "currency",
  // Paid in the affiliate's currency (ADR 052): what they receive and the rate; empty otherwise.
  "payout_amount",
  "payout_currency",
  "rate",
  "rate_source",
  "rate_at",
  "created_at",
] as const;
export const PLAIN_COLUMNS = ["payout_id", ...PLAIN_EXPORT_ONLY_COLUMNS, "reference", "paid_at", "note"] as const;

// A CSV payment is one batch; createPayoutBatch reads and moves its payouts
// in groups, so the cap only keeps one request's form and transaction short.
export const MAX_EXPORT_PAYOUTS = 5000;
// The import marks its rows paid with markPayoutsPaid (one statement per
// payout, bulk statements for the rest) in one transaction.
export const MAX_PAID_IMPORT_ROWS = 5000;
export const MAX_PAID_IMPORT_BYTES = 2 * 1024 * 1024;
export const MAX_REFERENCE_LENGTH = 200;
export const MAX_NOTE_LENGTH = 500;
