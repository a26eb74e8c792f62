import { readCsvTable, type ImportError } from "../csv/csv-table";
import { APP_FORMAT_SPECS, locateColumns, mapAppRow, missingColumns, type AppFormat } from "./app-import-formats";
import { checkAffiliateRow, MAX_IMPORT_ROWS, type ParsedRow, type ParseResult } from "./csv-format";

// Reading another app's export (app-import-formats.ts says which columns):
// the same parser, row numbers, size limit and per-row checks as this app's
// own file (csv-format.ts), so both kinds of file end as the same rows for
// the import job. Server only (csv-parse needs Node's Buffer).

export interface AppParsedRow extends ParsedRow {
  /** The affiliate's old link code, kept as an alias (null: none, or it is the referral code). */
  alias: string | null;
  /** An old code that cannot be kept (the report says so; the row is imported). */
  oldCodeLost: string | null;
}

export interface AppParseResult extends Omit<ParseResult, "rows"> {
  rows: AppParsedRow[];
}

export function parseAppAffiliateCsv(format: AppFormat, text: string): AppParseResult {
  const table = readCsvTable(text, {
    columns: [],
    ignoreUnknown: true,
    required: [],
    maxRows: MAX_IMPORT_ROWS,
    noun: "affiliate",
  });
  if (table.errors.length) return { rows: [], errors: table.errors, fileErrors: table.errors };
  const found = locateColumns(format, table.names);
  const missing = missingColumns(found);
  if (missing.length) {
    const fileErrors: ImportError[] = missing.map((field) => ({
      row: 1,
      column: APP_FORMAT_SPECS[format].columns[field]?.[0] ?? field,
      message: "This column is required",
    }));
    return { rows: [], errors: fileErrors, fileErrors };
  }
  const rows: AppParsedRow[] = [];
  const errors: ImportError[] = [];
  for (const { row, cells } of table.records) {
    const mapped = mapAppRow(format, (field) => {
      const index = found[field];
      return index === undefined ? "" : (cells[index] ?? "");
    });
    const checked = checkAffiliateRow(row, (column) => mapped.values[column as keyof typeof mapped.values] ?? "");
    if (checked.ok) rows.push({ ...checked.row, alias: mapped.alias, oldCodeLost: mapped.oldCodeLost });
    else errors.push(...checked.errors);
  }
  return { rows, errors, fileErrors: [] };
}
