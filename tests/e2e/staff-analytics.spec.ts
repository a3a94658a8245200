import { randomUUID } from "node:crypto";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { staffLogin } from "./staff-support";

/**
 * The owners' analytics (docs/staff.md, Analytics), with JavaScript and without: a visit of a lander shows in the
 * funnel per lander, the charts are SVG drawn on the server with accessible names and a table behind each, the view
 * is its URL, a table's CSV holds its rows, axe finds nothing and the page works at 390 px.
 */

/** RFC 4180 CSV as written by contract/csv.ts: rows of cells (quoted cells may hold commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split("\n").filter(Boolean)) {
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quoted && ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = !quoted;
      else if (ch === "," && !quoted) {
        cells.push(cell);
        cell = "";
      } else cell += ch;
    }
    cells.push(cell);
    rows.push(cells);
  }
  return rows;
}

test("an admin reads the analytics: charts with their tables, the view in its link, each table as CSV", { tag: "@nojs" }, async ({ page, browser, baseURL, javaScriptEnabled }) => {
  // A visitor enters by a lander: one visit of that lander today (counted without personal data).
  const ref = `e2e${randomUUID().slice(0, 8)}`;
  const visitor = await browser.newContext({ baseURL, javaScriptEnabled });
  await (await visitor.newPage()).goto(`/landers/video?network=analytics&ref=${ref}`);
  await visitor.close();

  await staffLogin(page, "admin");
  await page.goto("/staff/analytics?site=1&period=today");
  // The visit is counted beside the page, not before it: look again until it is there.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("table-funnel-sources")).toContainText(ref, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  await expect(page.getByTestId("table-funnel-landers")).toContainText("landers/video");

  // Five charts, each an SVG drawn on the server with its name and description, and a table behind it.
  const charts = page.locator("svg[role=img]");
  await expect(charts).toHaveCount(5);
  for (const [id, name] of [
    ["funnel-steps", "The funnel, this period and the one before"],
    ["funnel-days", "Visits, signups and first purchases a day"],
    ["revenue-days", "Net revenue a day"],
    ["cohorts", "Share of each signup week that paid"],
    ["chat-days", "Paid messages a day"],
  ] as const) {
    const chart = page.getByTestId(`chart-${id}`);
    await expect(chart.getByRole("img", { name })).toBeVisible();
    await expect(chart.locator("svg desc")).not.toBeEmpty();
    // Its table, or the note that the period has nothing for it.
    expect((await chart.locator("table").count()) + (await chart.getByText("Nothing in this period.").count())).toBe(1);
  }
  await expect(page.getByTestId("chart-funnel-steps").locator("table")).toHaveCount(1);
  await expect(page.getByTestId("chart-funnel-steps").locator("svg rect").first()).toBeAttached();

  // The period is the URL: choose 7 days and show; the share link is the view's own address.
  await page.getByLabel("Period", { exact: true }).selectOption("7");
  await page.getByRole("button", { name: "Show" }).click();
  await page.waitForURL((url) => url.searchParams.get("period") === "7");
  expect(new URL(page.url()).searchParams.get("site")).toBe("1");
  // With JavaScript the address changes before React has drawn the new view: wait for the link, not read it at once.
  await expect(page.getByTestId("analytics-share")).toHaveAttribute("href", "/staff/analytics?site=1&period=7");

  // The CSV of a table is its rows, as on the page. Other tests sign members up meanwhile (today is in the period), so
  // the page and its CSV are read again until both were read with nothing changed between them.
  const table = page.getByTestId("table-funnel-summary");
  let onPage: string[][] = [];
  await expect(async () => {
    await page.reload();
    onPage = [
      await table.locator("thead th").allInnerTexts(),
      ...(await Promise.all((await table.locator("tbody tr").all()).map((row) => row.locator("td").allInnerTexts()))),
    ].map((cells) => cells.map((cell) => cell.trim()));
    const csvHref = await page.getByRole("link", { name: "Download “Funnel steps” as CSV" }).getAttribute("href");
    const csv = await page.request.get(csvHref!);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    // Cell for cell, a text a spreadsheet would run as a formula (here a change such as "+12.5%") with the leading
    // apostrophe the one CSV function gives it (contract/csv.ts).
    expect(parseCsv(await csv.text())).toEqual(onPage.map((cells) => cells.map((cell) => (/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) ? `'${cell}` : cell))));
  }).toPass({ timeout: 20_000 });
  expect(onPage).toHaveLength(6);

  // axe runs as a script in the page, so it audits with JavaScript on (the server sends the same page either way).
  if (javaScriptEnabled) await expectNoAxeViolations(page);
  // At 390 px the page does not scroll sideways (wide tables scroll in their own box).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.getByTestId("chart-funnel-days").getByRole("img")).toBeVisible();
  if (javaScriptEnabled) await expectNoAxeViolations(page);
});
