import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { chromium, type Page, type TestInfo } from "@playwright/test";
import lighthouse, { type Flags, type Result } from "lighthouse";
import { TeasersResponse } from "#contract/members";
import { PackagesResponse } from "#contract/payments";
import { chromiumArgs, findChromium } from "../../scripts/chromium";
import { freePort } from "../../bench/processes";
import { expect, sameOrigin, test } from "./fixtures";
import { activeMember } from "./accounts-support";

/**
 * Lighthouse's accessibility, best practices and SEO at 100, and a cumulative layout shift under 0.01, on a
 * representative set of the pages of accessibility.spec.ts (its `pages` list, which axe audits one by one): a visitor's
 * pages and landers, and a logged-in member's pages, one of each kind (a Lighthouse run costs about 8 s a page, and
 * the whole suite must stay within its time). Lighthouse (its Node API; mobile form factor and screen; nothing throttled while loading)
 * runs the pages of a test one after the other in one Chromium of its own, started with a remote debugging port for
 * it; the cookies (the member's session, the passed site-entry warning) travel as a Cookie header. CLS is Lighthouse's
 * own audit (cumulative-layout-shift, observed in the trace of the same load), with the elements that shifted
 * (layout-shifts). A test fails on any score below 100 or a CLS of 0.01 or more, and lists per page each failing audit
 * with its elements (selectors, snippets) or urls; the failing pages' reports (JSON) are kept in its output folder.
 */

const categories = ["accessibility", "best-practices", "seo"] as const;
const clsLimit = 0.01;

/** A visitor's pages (with the site-entry warning already passed): general pages, forms, landers. */
const visitorPaths = (member: number): string[] => [
  "/",
  "/login",
  "/signup",
  "/pages/faq",
  "/landers/alonetonight/bdsm",
  `/members/${member}/landing`,
];

/** A logged-in member's pages: search, a member, chat, a game, profile and photos, credits and a package. */
const memberPaths = (s: { member: number; conversation: number; packageId: number }): string[] => [
  "/members",
  `/members/${s.member}`,
  `/chats/${s.conversation}`,
  "/swipe-game",
  "/profile",
  "/profile/photos",
  "/credits",
  `/credits/${s.packageId}`,
];

/** One item value of an audit's details as text: an element (selector, label, snippet), a source location, a url, a value. */
function itemValue(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value !== "object") return String(value);
  const v = value as Record<string, unknown>;
  if (v.type === "node") {
    const snippet = typeof v.snippet === "string" ? v.snippet.replace(/\s+/g, " ").slice(0, 200) : "";
    // axe's failure summary of the element ("Fix any of the following:" and the reasons, a line each).
    const explanation = typeof v.explanation === "string" ? ` — ${v.explanation.replace(/^Fix (any|all) of the following:\s*/, "").replace(/\s*\n\s*/g, "; ")}` : "";
    return `${v.selector ?? ""} ${snippet}${explanation}`.trim();
  }
  if (v.type === "source-location") return `${v.url}:${Number(v.line) + 1}:${Number(v.column) + 1}`;
  if (v.type === "url" || v.type === "code" || v.type === "text") return String(v.value);
  if ("formattedDefault" in v) return String(v.formattedDefault);
  return JSON.stringify(v).slice(0, 200);
}

/** The items of an audit's details (tables, lists, sub-items), one line each. */
function detailLines(details: unknown, indent = "      "): string[] {
  if (!details || typeof details !== "object") return [];
  const d = details as { type?: string; items?: unknown[] };
  if (!Array.isArray(d.items)) return [];
  return d.items.flatMap((item): string[] => {
    if (!item || typeof item !== "object") return [];
    const record = item as Record<string, unknown>;
    if (typeof record.type === "string" && "items" in record) return detailLines(record, indent);
    const parts = Object.entries(record)
      .filter(([key]) => key !== "subItems")
      .map(([key, value]) => [key, itemValue(value)] as const)
      .filter(([, text]) => text !== null)
      .map(([key, text]) => (key === "node" ? text : `${key}: ${text}`));
    const sub = record.subItems ? detailLines(record.subItems, `${indent}  `) : [];
    return [...(parts.length ? [`${indent}- ${parts.join(" | ")}`] : []), ...sub];
  });
}

type Measured = { path: string; scores: Record<string, number | null>; cls: number | null; problems: string[]; seconds: number };

/** The failing audits of one report: each scored audit of the three categories below 1, or in error, with its items. */
function failures(lhr: Result): string[] {
  const lines: string[] = [];
  for (const id of categories) {
    const category = lhr.categories[id];
    if (!category) {
      lines.push(`  ${id}: no score`);
      continue;
    }
    const before = lines.length;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit) continue;
      const failed = audit.scoreDisplayMode === "error" || (ref.weight > 0 && audit.score !== null && audit.score < 1);
      if (!failed) continue;
      const why = [audit.displayValue, audit.explanation, audit.errorMessage].filter(Boolean).join("; ");
      lines.push(`  [${id}] ${audit.id}: ${audit.title}${why ? ` (${why})` : ""}`, ...detailLines(audit.details));
    }
    if (category.score !== 1 && lines.length === before) lines.push(`  ${id}: score ${category.score ?? "none"}`);
  }
  return lines;
}

/** Lighthouse's runtime errors for a trace it did not record well, whatever the page did. */
const traceRecordingErrors = new Set(["NO_TRACING_STARTED", "NO_RESOURCE_REQUEST", "NO_NAVSTART", "NO_DCL"]);

/** Lighthouse on each path in one Chromium of its own (a remote debugging port for Lighthouse), one path after the other. */
async function measure(origin: string, runs: { path: string; cookie: string }[], outputPath: (name: string) => string): Promise<Measured[]> {
  const port = await freePort();
  const lighthouseBrowser = await chromium.launch({
    executablePath: findChromium() ?? "/usr/bin/chromium-headless-shell",
    args: [...chromiumArgs, `--remote-debugging-port=${port}`, "--lang=en-US"],
  });
  const measured: Measured[] = [];
  try {
    for (const { path, cookie } of runs) {
      const started = Date.now();
      const flags: Flags = {
        port,
        hostname: "127.0.0.1",
        output: "json",
        logLevel: "error",
        onlyCategories: [...categories],
        // CLS from the trace of the same load, and the elements that shifted.
        onlyAudits: ["cumulative-layout-shift", "layout-shifts"],
        formFactor: "mobile",
        // Lighthouse's default "simulate" throttles nothing while loading (it only models the performance metrics afterwards,
        // which these categories do not use; CLS is observed). "provided" or "devtools" would make Lighthouse wait 5.25 s
        // instead of 1 s for quiet after FCP and after load (nonSimulatedSettingsOverrides): 13 s a page instead of 6.
        throttlingMethod: "simulate",
        disableFullPageScreenshot: true,
        extraHeaders: { Cookie: cookie, "Accept-Language": "en-US,en;q=0.9" },
      };
      let result = await lighthouse(`${origin}${path}`, flags);
      // A trace Lighthouse failed to record is its own fault and its message asks to run it again
      // (node_modules/lighthouse/core/lib/lh-error.js, "badTraceRecording"): once more, then it counts.
      if (result?.lhr.runtimeError && traceRecordingErrors.has(result.lhr.runtimeError.code)) result = await lighthouse(`${origin}${path}`, flags);
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`${path}: Lighthouse returned no report`);
      const problems: string[] = [];
      const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
      if (finalPath !== new URL(path, origin).pathname) problems.push(`  audited at ${finalPath}, not ${path} (a redirect)`);
      // A page that did not load (an error status, a crash): that alone, not every audit it could not run.
      if (lhr.runtimeError) problems.push(`  runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      else problems.push(...failures(lhr));
      const cls = lhr.audits["cumulative-layout-shift"]?.numericValue ?? null;
      if (cls === null) {
        if (!lhr.runtimeError) problems.push(`  no cumulative layout shift measured (${lhr.audits["cumulative-layout-shift"]?.errorMessage ?? "no audit"})`);
      } else if (cls >= clsLimit) {
        problems.push(`  [cls] cumulative layout shift ${cls.toFixed(4)} (limit ${clsLimit})`, ...detailLines(lhr.audits["layout-shifts"]?.details));
      }
      const scores = Object.fromEntries(categories.map((id) => [id, lhr.categories[id]?.score ?? null]));
      if (problems.length) writeFileSync(outputPath(`${path.replace(/\W+/g, "_")}.report.json`), JSON.stringify(lhr));
      measured.push({ path, scores, cls, problems, seconds: (Date.now() - started) / 1000 });
    }
  } finally {
    await lighthouseBrowser.close();
  }
  return measured;
}

/** Fails on any page with a problem; the message (and the attachment "lighthouse") has every page's scores, CLS and problems. */
async function report(measured: Measured[], testInfo: TestInfo): Promise<void> {
  const summary = measured
    .map((m) => {
      const scores = categories.map((id) => `${id} ${m.scores[id] === null ? "-" : Math.round((m.scores[id] ?? 0) * 100)}`).join(", ");
      return `${m.path}: ${scores}, CLS ${m.cls?.toFixed(4) ?? "-"} (${m.seconds.toFixed(1)} s)${m.problems.length ? `\n${m.problems.join("\n")}` : ""}`;
    })
    .join("\n");
  await testInfo.attach("lighthouse", { body: summary, contentType: "text/plain" });
  const failing = measured.filter((m) => m.problems.length).map((m) => m.path);
  expect(failing, `Lighthouse below 100 or CLS at ${clsLimit} or more (the failing pages' reports are in ${testInfo.outputDir}):\n${summary}`).toEqual([]);
}

/** The Cookie header of a context's cookies for the site. */
async function cookieHeader(page: Page, origin: string): Promise<string> {
  return (await page.context().cookies(origin)).map((c) => `${c.name}=${c.value}`).join("; ");
}

/** A demo member (a teaser the api shows visitors), as accessibility.spec.ts takes it. */
async function demoMember(page: Page): Promise<number> {
  const teasers = TeasersResponse.parse(await (await page.request.get("/api/teasers.php?count=1")).json());
  return teasers.members[0]!.id;
}

test.describe("Lighthouse: accessibility, best practices and SEO at 100, CLS under 0.01", () => {
  // Up to 16 pages a test, about 6 s each (more on a loaded machine).
  test.describe.configure({ timeout: 360_000 });

  test("a visitor's pages and landers", async ({ page, baseURL }, testInfo) => {
    const origin = baseURL ?? "http://localhost:4100";
    const member = await demoMember(page);
    // The visitor has passed the site-entry warning, as in the other tests (fixtures.ts).
    const cookie = `site_entry_skipped=${new Date().toISOString()}`;
    const measured = await measure(origin, visitorPaths(member).map((path) => ({ path, cookie })), (name) => testInfo.outputPath(name));
    await report(measured, testInfo);
  });

  test("a member's pages", async ({ browser, baseURL }, testInfo) => {
    const origin = baseURL ?? "http://localhost:4100";
    // A logged-in member and the samples, as accessibility.spec.ts takes them: a demo member, the conversation with them, a package.
    const member = await activeMember(browser, origin);
    const other = await demoMember(member.page);
    const sent = await member.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: other, body: "Hello there", key: randomUUID() } });
    expect(sent.status(), await sent.text()).toBe(201);
    const conversation = ((await sent.json()) as { message: { conversation_id: number } }).message.conversation_id;
    const packages = PackagesResponse.parse(await (await member.page.request.get("/api/packages.php")).json());
    const packageId = packages.packages[0]!.id;
    const cookie = await cookieHeader(member.page, origin);
    expect(cookie, "the member's cookies: the session and the passed entry warning").toContain("site_entry_skipped=");
    const paths = memberPaths({ member: other, conversation, packageId });
    const measured = await measure(origin, paths.map((path) => ({ path, cookie })), (name) => testInfo.outputPath(name));
    await report(measured, testInfo);
  });
});
