import { describe, expect, it } from "vitest";
import { csvText } from "#contract/csv";
import { formatWait, operatorFiguresCsv } from "~/features/staff/operator-figures";

/** The operator figures' CSV and how waits read. */
describe("operator figures", () => {
  it("writes RFC 4180 CSV with a header, quoting commas and quotes, and never a cell a spreadsheet would run as a formula", () => {
    const csv = operatorFiguresCsv([
      { staff_id: 3, name: 'Olly "O" Operator, Jr.', day: "2026-11-26", replies: 12, conversations: 9, median_seconds: 95, p90_seconds: 610, member_messages_after: 7 },
      { staff_id: 4, name: "=HYPERLINK(1)", day: "2026-11-25", replies: 1, conversations: 1, median_seconds: null, p90_seconds: null, member_messages_after: 0 },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "day,operator_id,operator,answers,conversations,median_wait_seconds,p90_wait_seconds,member_messages_after",
      '2026-11-26,3,"Olly ""O"" Operator, Jr.",12,9,95,610,7',
      `2026-11-25,4,'=HYPERLINK(1),1,1,,,0`,
      "",
    ]);
  });

  it("neutralises every formula start the other CSVs do, the fullwidth ＝＋－＠ too: one function for every CSV", () => {
    const names = ["\uFF1D1+1", "\uFF0BSUM(1)", "\uFF0D2", "\uFF20A1", "+1", "-1", "@A1", "\tx", "\rx"];
    const csv = operatorFiguresCsv(names.map((name, i) => ({ staff_id: i + 1, name, day: "2026-11-26", replies: 1, conversations: 1, median_seconds: null, p90_seconds: null, member_messages_after: 0 })));
    const cells = csv.split("\r\n").slice(1, -1).map((line) => line.split(",")[2]!.replace(/^"|"$/g, ""));
    expect(cells).toEqual(names.map((name) => `'${name}`));
    expect(csv).toBe(csvText([["day", "operator_id", "operator", "answers", "conversations", "median_wait_seconds", "p90_wait_seconds", "member_messages_after"], ...names.map((name, i) => ["2026-11-26", i + 1, name, 1, 1, null, null, 0])], "\r\n"));
  });

  it("reads waits in seconds, minutes, or hours and minutes", () => {
    expect([formatWait(null), formatWait(0), formatWait(59), formatWait(60), formatWait(3599), formatWait(3660), formatWait(90061)]).toEqual(["–", "0 s", "59 s", "1 min", "1 h 0 min", "1 h 1 min", "25 h 1 min"]);
  });
});
