import type { OperatorsResponse } from "#contract/staff-inbox";

/** A wait in seconds as staff read it: "45 s", "12 min", "3 h 5 min". */
export function formatWait(seconds: number | null): string {
  if (seconds === null) return "–";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The figures as CSV (RFC 4180, a header row, seconds as numbers), for a spreadsheet. A text that a spreadsheet would
 * run as a formula (a name starting with = + - or @) gets a leading apostrophe (OWASP's CSV injection advice).
 */
export function operatorFiguresCsv(rows: OperatorsResponse["rows"]): string {
  const quote = (value: string | number | null) => {
    let text = value === null ? "" : String(value);
    if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const header = ["day", "operator_id", "operator", "answers", "conversations", "median_wait_seconds", "p90_wait_seconds", "member_messages_after"];
  const lines = rows.map((row) => [row.day, row.staff_id, row.name, row.replies, row.conversations, row.median_seconds, row.p90_seconds, row.member_messages_after].map(quote).join(","));
  return [header.join(","), ...lines].join("\r\n") + "\r\n";
}
