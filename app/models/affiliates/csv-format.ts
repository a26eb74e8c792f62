import { fieldErrorsFromZod } from "../../lib/errors";
import { affiliateFormSchema, type AffiliateForm } from "./admin-schemas";
import { cellOf, extraCellsError, readCsvTable, type ImportError } from "../csv/csv-table";
import {
  CSV_COLUMNS,
  EXPORT_ONLY_COLUMNS,
  MAX_IMPORT_ROWS,
  REQUIRED_COLUMNS,
  SIGNUP_COLUMN_PREFIX,
} from "./csv-columns";

export {
  CSV_COLUMNS,
  EXPORT_ONLY_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  SIGNUP_COLUMN_PREFIX,
  type ImportError,
} from "./csv-columns";

// Reading the affiliate CSV: one header row, then one affiliate per row. Pure
// (no database): parsing and header checks (../csv/csv-table.ts), then the
// per-row checks. Server only (csv-parse needs Node's Buffer); the browser
// imports csv-columns.ts.

export interface ParsedRow {
  row: number;
  form: AffiliateForm;
  campaign: string | undefined;
}

/** Rows that passed the file's own checks, and the problems of the others. */
export interface ParseResult {
  rows: ParsedRow[];
  errors: ImportError[];
  /** The file's own problems (header, size, unreadable): none of its rows can be read. */
  fileErrors: ImportError[];
}

// How the domain's field names read in the file.
const COLUMN_OF: Record<string, string> = { campaign_id: "campaign", parent_id: "upline" };

export function columnOf(field: string): string {
  const name = field.split(".")[0]!;
  return COLUMN_OF[name] ?? name;
}

/** One row's own checks (the form's schema), its cells named by this app's columns. */
export function checkAffiliateRow(
  row: number,
  value: (column: string) => string,
): { ok: true; row: ParsedRow } | { ok: false; errors: ImportError[] } {
  const parsed = affiliateFormSchema.safeParse({
    email: value("email"),
    first_name: value("first_name"),
    last_name: value("last_name"),
    status: value("status").toLowerCase(),
    referral_code: value("referral_code"),
    coupon_codes: value("coupon_codes"),
    upline: value("upline"),
  });
  if (!parsed.success)
    return {
      ok: false,
      errors: Object.entries(fieldErrorsFromZod(parsed.error.issues)).map(([field, message]) => ({
        row,
        column: columnOf(field),
        message,
      })),
    };
  return { ok: true, row: { row, form: parsed.data, campaign: value("campaign") || undefined } };
}

/** Parses and checks a whole file; every row's problems are reported, not only the first. */
export function parseAffiliateCsv(text: string): ParseResult {
  const table = readCsvTable(text, {
    columns: CSV_COLUMNS,
    ignored: EXPORT_ONLY_COLUMNS,
    ignoredPrefix: SIGNUP_COLUMN_PREFIX,
    required: REQUIRED_COLUMNS,
    maxRows: MAX_IMPORT_ROWS,
    noun: "affiliate",
  });
  const errors: ImportError[] = [...table.errors];
  const rows: ParsedRow[] = [];
  for (const { row, cells } of table.records) {
    const value = (column: string) => cellOf(table, cells, column);
    const extra = extraCellsError(table, row, cells);
    if (extra) {
      errors.push(extra);
      continue;
    }
    const checked = checkAffiliateRow(row, value);
    if (checked.ok) rows.push(checked.row);
    else errors.push(...checked.errors);
  }
  return { rows, errors, fileErrors: table.errors };
}
