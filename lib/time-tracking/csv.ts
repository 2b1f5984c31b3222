/*
 * CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field holding a comma, a double
 * quote, CR or LF enclosed in double quotes with its double quotes doubled. A text cell that a spreadsheet would
 * read as a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading apostrophe (OWASP's
 * advice against CSV injection). Numbers are written as they are.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: text is neutralised and quoted where needed; numbers as they are. */
export function csvCell(value: string | number): string {
  if (typeof value === "number") return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A whole document: a header record, then one record per row, each ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}
