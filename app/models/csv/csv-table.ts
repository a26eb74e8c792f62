import { parse } from "csv-parse/sync";

// Reading an uploaded CSV file into a checked header and its rows, shared by
// the imports (affiliates, paid payouts): the same parser options, the same
// row numbering (row 1 is the header, as in a spreadsheet) and the same
// header problems, so every import reports a bad file the same way. Pure (no
// database); server only (csv-parse needs Node's Buffer).

/** A problem in the file: row 1 is the header, so the first record is row 2. */
export interface ImportError {
  row: number;
  column: string;
  message: string;
}

export interface CsvTableRules {
  /** Columns the import reads, in the order the help text lists them. */
  columns: readonly string[];
  /** Columns an export writes that the import accepts and ignores. */
  ignored?: readonly string[];
  /** Columns whose names start so are written by an export and ignored by the import. */
  ignoredPrefix?: string;
  required: readonly string[];
  /** Columns not listed are ignored rather than refused (other apps' exports). */
  ignoreUnknown?: boolean;
  maxRows: number;
  /** What one record is, for "The file has no … rows." */
  noun: string;
}

export interface CsvTable {
  /** The header's column names, trimmed and lower case. */
  names: string[];
  /** The records after the header, each with its spreadsheet row number. */
  records: { row: number; cells: string[] }[];
  errors: ImportError[];
}

/** Parses a file and checks its header; a file with header problems has no records. */
export function readCsvTable(text: string, rules: CsvTableRules): CsvTable {
  let parsed: string[][];
  try {
    parsed = parse(text.replace(/^\uFEFF/, ""), {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return {
      names: [],
      records: [],
      errors: [{ row: line ?? 1, column: "", message: `The file is not valid CSV: ${(error as Error).message}` }],
    };
  }
  const [header, ...body] = parsed;
  if (!header) return { names: [], records: [], errors: [{ row: 1, column: "", message: "The file is empty." }] };
  const names = header.map((name) => name.trim().toLowerCase());
  const errors: ImportError[] = [];
  const known = new Set<string>([...rules.columns, ...(rules.ignored ?? [])]);
  const ignoredPrefix = rules.ignoredPrefix;
  names.forEach((name, index) => {
    if (!known.has(name) && !(ignoredPrefix && name.startsWith(ignoredPrefix)) && !rules.ignoreUnknown)
      errors.push({
        row: 1,
        column: name || `column ${index + 1}`,
        message: `Unknown column; use ${rules.columns.join(", ")}`,
      });
    else if (names.indexOf(name) !== index)
      errors.push({ row: 1, column: name, message: "This column is listed twice" });
  });
  for (const required of rules.required) {
    if (!names.includes(required)) errors.push({ row: 1, column: required, message: "This column is required" });
  }
  if (!body.length) errors.push({ row: 2, column: "", message: `The file has no ${rules.noun} rows.` });
  if (body.length > rules.maxRows)
    errors.push({ row: rules.maxRows + 2, column: "", message: `Import at most ${rules.maxRows} rows at a time` });
  if (errors.length) return { names, records: [], errors };
  return { names, records: body.map((cells, index) => ({ row: index + 2, cells })), errors };
}

/** The cell of `column` in a record ("" when the file has no such column). */
export function cellOf(table: Pick<CsvTable, "names">, cells: string[], column: string): string {
  const at = table.names.indexOf(column);
  return at >= 0 ? (cells[at] ?? "") : "";
}

/** A record with more cells than the header has names, or null. */
export function extraCellsError(table: Pick<CsvTable, "names">, row: number, cells: string[]): ImportError | null {
  return cells.length > table.names.length
    ? { row, column: "", message: `This row has ${cells.length} cells; the header has ${table.names.length}` }
    : null;
}
