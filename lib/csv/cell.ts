// The one way we write a CSV cell (label exports, trajectory exports, dashboard CSVs), pure.
// RFC 4180 quoting, plus formula-injection protection: a text cell that a spreadsheet would read
// as a formula or command (leading =, +, -, @, TAB or CR — the OWASP list) gets a leading
// apostrophe, which spreadsheets show as text and do not evaluate. Numbers and booleans are
// written as they are, so a negative score stays a number.

export type CsvCellValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, CRLF-terminated. */
export function csvLine(cells: readonly CsvCellValue[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
