import { cellOf, extraCellsError, readCsvTable, type ImportError } from "../../csv/csv-table";
import {
  MAX_NOTE_LENGTH,
  MAX_PAID_IMPORT_ROWS,
  MAX_REFERENCE_LENGTH,
  PAID_IMPORT_COLUMNS,
  PAID_IMPORT_REQUIRED,
  PLAIN_EXPORT_ONLY_COLUMNS,
} from "./payout-csv-columns";

// Reading the paid-payouts CSV (the plain export with its reference column
// filled in): one payout per row. Pure: the file's own rules only; whether the
// payouts exist and can be marked paid is checked against the shop afterwards
// (import-paid-csv.server.ts). Server only (csv-parse).

export interface PaidRow {
  row: number;
  payoutId: string;
  reference: string;
  paidAt: Date | null;
  note: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "2026-11-20" (noon UTC, so the day reads the same in every zone) or an ISO timestamp. */
export function parsePaidAt(text: string, now: Date): Date | string {
  const value = text.trim();
  const date = new Date(DAY.test(value) ? `${value}T12:00:00Z` : value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime()))
    return "Use a date as YYYY-MM-DD (or an ISO 8601 time)";
  if (date.getTime() > now.getTime() + 24 * 3600_000) return "The payment date is in the future";
  return date;
}

/**
 * `fileErrors`: the file cannot be read (header, size), and is refused whole;
 * `errors`: problems of single rows, which refuse those rows only.
 */
export function parsePaidCsv(
  text: string,
  now = new Date(),
): { rows: PaidRow[]; errors: ImportError[]; fileErrors: ImportError[] } {
  const table = readCsvTable(text, {
    columns: PAID_IMPORT_COLUMNS,
    ignored: PLAIN_EXPORT_ONLY_COLUMNS,
    required: PAID_IMPORT_REQUIRED,
    maxRows: MAX_PAID_IMPORT_ROWS,
    noun: "payout",
  });
  const errors: ImportError[] = [];
  const rows: PaidRow[] = [];
  const seen = new Map<string, number>();
  for (const { row, cells } of table.records) {
    const extra = extraCellsError(table, row, cells);
    if (extra) {
      errors.push(extra);
      continue;
    }
    const before = errors.length;
    const fail = (column: string, message: string) => errors.push({ row, column, message });
    const payoutId = cellOf(table, cells, "payout_id");
    // A spreadsheet may keep the apostrophe the export put before a formula-like cell.
    const reference = cellOf(table, cells, "reference").replace(/^'(?=[=+\-@])/, "");
    const paidAtText = cellOf(table, cells, "paid_at");
    const note = cellOf(table, cells, "note");
    if (!payoutId) fail("payout_id", "Enter the payout's id");
    else if (seen.has(payoutId)) fail("payout_id", `This payout is already on row ${seen.get(payoutId)}`);
    if (!reference) fail("reference", "Enter the payment's reference");
    else if (reference.length > MAX_REFERENCE_LENGTH)
      fail("reference", `Use at most ${MAX_REFERENCE_LENGTH} characters`);
    if (note.length > MAX_NOTE_LENGTH) fail("note", `Use at most ${MAX_NOTE_LENGTH} characters`);
    let paidAt: Date | null = null;
    if (paidAtText) {
      const parsed = parsePaidAt(paidAtText, now);
      if (typeof parsed === "string") fail("paid_at", parsed);
      else paidAt = parsed;
    }
    if (payoutId && !seen.has(payoutId)) seen.set(payoutId, row);
    if (errors.length > before) continue;
    rows.push({ row, payoutId, reference, paidAt, note: note || null });
  }
  return { rows, errors, fileErrors: table.errors };
}
