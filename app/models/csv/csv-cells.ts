// Spreadsheet programs run a cell that starts with = + - @ (or a tab or
// carriage return before one) as a formula: an affiliate who signs up as
// "=HYPERLINK(...)" must not get code run on the merchant's computer when
// the export is opened. Such cells are prefixed with an apostrophe, which
// spreadsheets show as plain text (OWASP's advice for CSV injection).

const FORMULA_START = /^[=+\-@\t\r]/;

export function safeCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}
