/*
 * Every CSV the product writes (staff downloads, operator reports) goes through csvText: one quoting and one formula
 * rule. Plain code, no dependency: the staff pages' server code and the api's reports use it alike.
 */

/**
 * What a spreadsheet runs as a formula (OWASP's CSV injection list): a cell starting with = + - @, a tab or a carriage
 * return, or the fullwidth ＝ ＋ － ＠ that spreadsheets read as their ASCII forms.
 */
const formulaStart = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** One cell: a formula-like text gets a leading single quote (shown as text); quoted as RFC 4180 says when it must be. */
function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, each line ending in `eol` (a line feed, or CRLF as RFC 4180 has it). */
export function csvText(rows: readonly (readonly (string | number | null | undefined)[])[], eol: "\n" | "\r\n" = "\n"): string {
  return rows.map((row) => row.map(csvCell).join(",") + eol).join("");
}
