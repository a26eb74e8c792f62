import { parse } from "csv-parse/sync";
import { fieldErrorsFromZod } from "../../lib/errors";
import { affiliateFormSchema, type AffiliateForm } from "./admin-schemas";
import { CSV_COLUMNS, EXPORT_ONLY_COLUMNS, MAX_IMPORT_ROWS, REQUIRED_COLUMNS, type ImportError } from "./csv-columns";

export { CSV_COLUMNS, EXPORT_ONLY_COLUMNS, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, type ImportError } from "./csv-columns";

// Reading the affiliate CSV: one header row, then one affiliate per row. Pure
// (no database): parsing, header and per-row checks. Server only (csv-parse
// needs Node's Buffer); the browser imports csv-columns.ts.

export interface ParsedRow {
  row: number;
  form: AffiliateForm;
  campaign: string | undefined;
}

/** Rows that passed the file's own checks, and the problems of the others. */
export interface ParseResult {
  rows: ParsedRow[];
  errors: ImportError[];
}

// How the domain's field names read in the file.
const COLUMN_OF: Record<string, string> = { campaign_id: "campaign", parent_id: "upline" };

export function columnOf(field: string): string {
  const name = field.split(".")[0]!;
  return COLUMN_OF[name] ?? name;
}

/** Parses and checks a whole file; every row's problems are reported, not only the first. */
export function parseAffiliateCsv(text: string): ParseResult {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ""), {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return {
      rows: [],
      errors: [{ row: line ?? 1, column: "", message: `The file is not valid CSV: ${(error as Error).message}` }],
    };
  }
  const [header, ...body] = records;
  if (!header) return { rows: [], errors: [{ row: 1, column: "", message: "The file is empty." }] };
  const names = header.map((name) => name.trim().toLowerCase());
  const errors: ImportError[] = [];
  const known = new Set<string>([...CSV_COLUMNS, ...EXPORT_ONLY_COLUMNS]);
  names.forEach((name, index) => {
    if (!known.has(name))
      errors.push({
        row: 1,
        column: name || `column ${index + 1}`,
        message: `Unknown column; use ${CSV_COLUMNS.join(", ")}`,
      });
    else if (names.indexOf(name) !== index)
      errors.push({ row: 1, column: name, message: "This column is listed twice" });
  });
  for (const required of REQUIRED_COLUMNS) {
    if (!names.includes(required)) errors.push({ row: 1, column: required, message: "This column is required" });
  }
  if (!body.length) errors.push({ row: 2, column: "", message: "The file has no affiliate rows." });
  if (body.length > MAX_IMPORT_ROWS)
    errors.push({ row: MAX_IMPORT_ROWS + 2, column: "", message: `Import at most ${MAX_IMPORT_ROWS} rows at a time` });
  if (errors.length) return { rows: [], errors };

  const rows: ParsedRow[] = [];
  body.forEach((cells, index) => {
    const row = index + 2;
    const value = (column: string) => {
      const at = names.indexOf(column);
      return at >= 0 ? (cells[at] ?? "") : "";
    };
    if (cells.length > names.length) {
      errors.push({ row, column: "", message: `This row has ${cells.length} cells; the header has ${names.length}` });
      return;
    }
    const parsed = affiliateFormSchema.safeParse({
      email: value("email"),
      first_name: value("first_name"),
      last_name: value("last_name"),
      status: value("status").toLowerCase(),
      referral_code: value("referral_code"),
      coupon_codes: value("coupon_codes"),
      upline: value("upline"),
    });
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrorsFromZod(parsed.error.issues)))
        errors.push({ row, column: columnOf(field), message });
      return;
    }
    rows.push({ row, form: parsed.data, campaign: value("campaign") || undefined });
  });
  return { rows, errors };
}
