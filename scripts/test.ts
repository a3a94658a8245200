/**
 * `npm test`: every check of the project, in the order that fails fastest.
 * typecheck, lint, unit tests, api tests on PGlite (and on PostgreSQL when DATABASE_URL is set),
 * a production build, then the browser tests in Chromium with JavaScript on and off.
 * Every step runs even when an earlier one failed, so one run shows everything that is wrong;
 * the last line sums the tests: "Tests: N passed, N failed".
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { findChromium } from "./chromium";

const reportDir = path.resolve(".cache/test-reports");
// Reports of an earlier run must not be counted if a step of this run writes none.
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

type Counts = { passed: number; failed: number; skipped: number };
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const failedSteps: string[] = [];

/** The environment without DATABASE_URL: the embedded PGlite is the default everywhere but the PostgreSQL pass. */
function envWithout(name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env[name];
  return env;
}

function step(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  console.log(`${ok ? "✔" : "✘"} ${name} (${seconds} s)`);
  if (!ok) failedSteps.push(name);
  return ok;
}

function addVitest(file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  total.passed += report.numPassedTests;
  total.failed += report.numFailedTests;
  total.skipped += report.numPendingTests + report.numTodoTests;
}

function addPlaywright(file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  total.passed += report.stats.expected + report.stats.flaky;
  total.failed += report.stats.unexpected;
  total.skipped += report.stats.skipped;
}

function vitest(name: string, project: string, reportName: string, env: NodeJS.ProcessEnv): void {
  const report = path.join(reportDir, `${reportName}.json`);
  step(name, "npx", ["vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], env);
  addVitest(report);
}

step("typecheck", "npx", ["tsc", "--noEmit"]);
step("lint", "npx", ["eslint", "."]);
vitest("unit tests", "unit", "unit", envWithout("DATABASE_URL"));
vitest("api tests on PGlite", "api", "api-pglite", envWithout("DATABASE_URL"));
if (process.env.DATABASE_URL) {
  vitest("api tests on PostgreSQL", "api", "api-postgres", process.env);
} else {
  console.log("\n(api tests on PostgreSQL skipped: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test, to run them)");
}

if (step("production build", "npx", ["remix", "vite:build"])) {
  const chromium = findChromium({ install: true });
  if (!chromium) {
    console.error(
      "\n✘ browser tests: no Chromium found. Install Debian's package (sudo apt-get update && sudo apt-get install -y chromium)" +
        " or point CHROMIUM_PATH at a Chromium or Chrome binary, then run npm test again.",
    );
    failedSteps.push("browser tests (no Chromium)");
  } else {
    const report = path.join(reportDir, "e2e.json");
    step(
      "browser tests (JavaScript on and off)",
      "npx",
      ["playwright", "test", "--reporter=list,json"],
      envWithout("DATABASE_URL", { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: report }),
    );
    addPlaywright(report);
  }
}

console.log("");
if (failedSteps.length > 0) console.log(`Failed steps: ${failedSteps.join(", ")}`);
console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failedSteps.length > 0 || total.failed > 0 ? 1 : 0);
