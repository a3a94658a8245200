/** The printed tables. */
import type { FirstLoad } from "./http";
import type { LoadResult } from "./load";
import type { LiveStreamResult, MemoryUsage } from "./live-stream";
import type { PaidSendsResult } from "./paid-sends";
import { firstLoadBudgetOf, type RouteFirstLoad } from "./route-budgets";

export function table(headers: string[], rows: string[][], leftColumns = 1): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < leftColumns ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function rate(value: number): string {
  return value >= 100 ? integer.format(value) : value.toFixed(1);
}

function ms(value: number): string {
  if (value >= 100 || Number.isInteger(value)) return integer.format(value);
  return value.toFixed(value >= 10 ? 1 : 2);
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

/** One row per target; "vs bare Express" and "vs bare Remix" are the ratios of req/s to those ceilings. */
export function loadTable(results: LoadResult[], bareExpress: LoadResult | undefined, bareRemix: LoadResult | undefined): string {
  const versus = (r: LoadResult, ceiling: LoadResult | undefined) => (!ceiling ? "n/a" : r === ceiling ? "1" : ratio(r.reqPerSec, ceiling.reqPerSec));
  return table(
    ["target", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "vs bare Express", "vs bare Remix", "CPU ms/req"],
    results.map((r) => [
      r.name,
      rate(r.reqPerSec),
      ms(r.latencyMs.p50),
      ms(r.latencyMs.p99),
      integer.format(r.non2xx),
      integer.format(r.errors),
      versus(r, bareExpress),
      versus(r, bareRemix),
      cpuCell(r.cpuMsPerRequest),
    ]),
  );
}

/** "0.21" for one process, "13.60 (web 13.50 + api 0.10)" for several; "n/a" without /proc. */
function cpuCell(byProcess: Record<string, number | null>): string {
  const entries = Object.entries(byProcess);
  if (entries.length === 0 || entries.some(([, v]) => v === null)) return "n/a";
  const values = entries.map(([name, v]) => [name, v ?? 0] as const);
  const total = values.reduce((a, [, v]) => a + v, 0);
  if (values.length === 1) return total.toFixed(2);
  return `${total.toFixed(2)} (${values.map(([name, v]) => `${name} ${v.toFixed(2)}`).join(" + ")})`;
}

/** The paid-sends row: 201 answers per second through the api, and whether the credits added up afterwards. */
export function paidSendsTable(results: PaidSendsResult[]): string {
  return table(
    ["target", "sends/s", "p50 ms", "p99 ms", "non-201", "errors", "CPU ms/send", "accounting"],
    results.map((r) => [
      r.name,
      rate(r.sendsPerSec),
      ms(r.latencyMs.p50),
      ms(r.latencyMs.p99),
      integer.format(r.non201),
      integer.format(r.errors),
      cpuCell(r.cpuMsPerSend),
      r.accounting?.summary ?? "not checked",
    ]),
  );
}

export function ratio(value: number, ceiling: number): string {
  if (ceiling <= 0) return "n/a";
  const r = value / ceiling;
  return `${r.toFixed(r < 0.1 ? 4 : 3)} (${(r * 100).toFixed(1)}%)`;
}

export function routeBudgetTable(routes: RouteFirstLoad[]): string {
  return table(
    ["route", "JS gz", "JS files", "budget"],
    routes.map((r) => [r.route, kb(r.gzip), String(r.files), r.gzip <= firstLoadBudgetOf(r.route) ? "ok" : "OVER"]),
  );
}

export function firstLoadTable(pages: FirstLoad[]): string {
  return table(
    ["page", "HTML gz", "JS gz", "JS files", "CSS gz", "CSS files", "JS+CSS gz", "HTML raw", "JS raw", "CSS raw"],
    pages.map((p) => [
      p.page,
      kb(p.html.gzip),
      kb(p.js.gzip),
      String(p.js.files),
      kb(p.css.gzip),
      String(p.css.files),
      kb(p.js.gzip + p.css.gzip),
      kb(p.html.bytes),
      kb(p.js.bytes),
      kb(p.css.bytes),
    ]),
  );
}

function mb(bytes: number | null | undefined): string {
  return bytes == null ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function kbSigned(bytes: number | null): string {
  return bytes === null ? "n/a" : `${(bytes / 1024).toFixed(1)} kB`;
}

/** The live stream row: send-to-receive latency over the event stream, and what did not arrive. */
export function liveStreamTable(results: LiveStreamResult[]): string {
  return table(
    ["target", "sends/s", "p50 ms", "p99 ms", "max ms", "after 201 p50/p99", "send p50/p99", "missing", "dup/wrong/lost", "non-201", "CPU ms/send", "accounting"],
    results.map((r) => [
      r.name,
      rate(r.sendsPerSec),
      ms(r.latencyMs.p50),
      ms(r.latencyMs.p99),
      ms(r.latencyMs.max),
      `${ms(r.afterAnswerMs.p50)} / ${ms(r.afterAnswerMs.p99)}`,
      `${ms(r.sendLatencyMs.p50)} / ${ms(r.sendLatencyMs.p99)}`,
      `${integer.format(r.missing)} of ${integer.format(r.created)}`,
      `${r.duplicates}/${r.misdelivered}/${r.streamsLost}`,
      integer.format(r.non201 + r.errors),
      cpuCell(r.cpuMsPerSend),
      r.accounting?.summary ?? "not checked",
    ]),
  );
}

/** Memory per open stream in web and in the api: (after − before) / streams, after a full GC in each. */
export function streamMemoryTable(results: { label: string; result: LiveStreamResult }[]): string {
  const rows: string[][] = [];
  for (const { label, result } of results) {
    for (const name of ["web", "api"] as const) {
      const m = result.memory[name];
      const usage = (u: MemoryUsage | null) => `${mb(u?.rss)} / ${mb(u?.heapUsed)}`;
      rows.push([
        `${name}${label}`,
        usage(m.before),
        usage(m.after),
        kbSigned(m.rssPerStream),
        kbSigned(m.heapUsedPerStream),
        kbSigned(m.externalPerStream),
        m.before?.source === "probe" && m.after?.source === "probe" ? "after full GC" : "RSS from /proc, no GC",
      ]);
    }
  }
  return table(["process", "before: RSS / heap used", `after ${results[0]?.result.streamsReady ?? 0} streams`, "RSS per stream", "heap per stream", "external per stream", "measured"], rows);
}
