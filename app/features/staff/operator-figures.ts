import { csvText } from "#contract/csv";
import type { OperatorsResponse } from "#contract/staff-inbox";

/** A wait in seconds as staff read it: "45 s", "12 min", "3 h 5 min". */
export function formatWait(seconds: number | null): string {
  if (seconds === null) return "–";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The figures as CSV (RFC 4180 with CRLF, a header row, seconds as numbers), for a spreadsheet: contract/csv.ts. */
export function operatorFiguresCsv(rows: OperatorsResponse["rows"]): string {
  const header = ["day", "operator_id", "operator", "answers", "conversations", "median_wait_seconds", "p90_wait_seconds", "member_messages_after"];
  return csvText([header, ...rows.map((row) => [row.day, row.staff_id, row.name, row.replies, row.conversations, row.median_seconds, row.p90_seconds, row.member_messages_after])], "\r\n");
}
