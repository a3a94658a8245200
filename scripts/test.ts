/**
 * `npm test`: every check of the project, in the order that fails fastest.
 * typecheck, lint, unit tests, api tests on PGlite (and on PostgreSQL when DATABASE_URL is set),
 * a production build, then the browser tests in Chromium with JavaScript on and off.
 * Every step runs even when an earlier one failed, so one run shows everything that is wrong.
 * At the end: each step's time, the 20 slowest tests (from the reports the steps write), the flaky
 * tests (failed, then passed on a retry: a defect to fix, not a pass), and the last line sums the
 * tests: "Tests: N passed, N flaky, N failed, N skipped".
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { findChromium } from "./chromium";
import { engineDependentApiTests } from "../tests/api/engine-dependent";

const reportDir = path.resolve(".cache/test-reports");
// Reports of an earlier run must not be counted if a step of this run writes none.
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

type Counts = { passed: number; flaky: number; failed: number; skipped: number };
const total: Counts = { passed: 0, flaky: 0, failed: 0, skipped: 0 };
const failedSteps: string[] = [];
const stepTimes: { name: string; seconds: number; ok: boolean }[] = [];
/** Every test's time, by step, for the list of the slowest. */
const durations: { step: string; name: string; ms: number }[] = [];
const flakyTests: string[] = [];
const runStarted = Date.now();

/** The environment without DATABASE_URL: the embedded PGlite is the default everywhere but the PostgreSQL pass. */
function envWithout(name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env[name];
  return env;
}

/** A step's end: its time and outcome into the run's lists, and its ✔ or ✘ line. */
function endStep(name: string, started: number, ok: boolean, note = ""): boolean {
  const seconds = (Date.now() - started) / 1000;
  stepTimes.push({ name, seconds, ok });
  console.log(`${ok ? "✔" : "✘"} ${name} (${seconds.toFixed(1)} s)${note}`);
  if (!ok) failedSteps.push(name);
  return ok;
}

function step(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  return endStep(name, started, result.status === 0);
}

/**
 * Steps run at the same time: typecheck and lint each use one thread (66 s one after the other, 45 s at once on 2
 * cores). Each step's output is held and printed whole when it ends, so the two never interleave.
 */
async function stepsAtOnce(steps: { name: string; command: string; args: string[] }[]): Promise<void> {
  console.log(`\n▶ at once: ${steps.map((s) => `${s.name} (${s.command} ${s.args.join(" ")})`).join(", ")}`);
  await Promise.all(
    steps.map(
      ({ name, command, args }) =>
        new Promise<void>((resolve) => {
          const started = Date.now();
          const output: Buffer[] = [];
          const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
          child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
          child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
          let ended = false;
          const done = (ok: boolean, note = "") => {
            // A spawn that fails emits "error" and may then emit "close": the step is counted once.
            if (ended) return;
            ended = true;
            process.stdout.write(`\n▶ ${name}: ${command} ${args.join(" ")}\n`);
            process.stdout.write(Buffer.concat(output));
            endStep(name, started, ok, note);
            resolve();
          };
          child.once("error", (error) => done(false, `: ${error.message}`));
          child.once("close", (code) => done(code === 0));
        }),
    ),
  );
}

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; assertionResults: { fullName: string; duration?: number | null }[] }[];
};

function addVitest(step: string, file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestReport;
  total.passed += report.numPassedTests;
  total.failed += report.numFailedTests;
  total.skipped += report.numPendingTests + report.numTodoTests;
  for (const suite of report.testResults) {
    for (const test of suite.assertionResults) {
      durations.push({ step, name: `${path.relative(process.cwd(), suite.name)} > ${test.fullName}`, ms: test.duration ?? 0 });
    }
  }
}

type PlaywrightSuite = {
  title: string;
  file?: string;
  specs?: { title: string; file: string; tests: { projectName: string; status: string; results: { duration: number }[] }[] }[];
  suites?: PlaywrightSuite[];
};

function addPlaywright(step: string, file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number }; suites: PlaywrightSuite[] };
  total.passed += report.stats.expected;
  total.flaky += report.stats.flaky;
  total.failed += report.stats.unexpected;
  total.skipped += report.stats.skipped;
  const walk = (suite: PlaywrightSuite, titles: string[]): void => {
    const here = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const name = `${spec.file} > ${[...here, spec.title].join(" > ")} [${test.projectName}]`;
        durations.push({ step, name, ms: test.results.reduce((sum, r) => sum + r.duration, 0) });
        if (test.status === "flaky") flakyTests.push(name);
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites) walk(suite, []);
}

function vitest(name: string, project: string, reportName: string, env: NodeJS.ProcessEnv, files: string[] = []): void {
  const report = path.join(reportDir, `${reportName}.json`);
  step(name, "npx", ["vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...files], env);
  addVitest(name, report);
}

await stepsAtOnce([
  { name: "typecheck", command: "npx", args: ["tsc", "--noEmit"] },
  { name: "lint", command: "npx", args: ["eslint", "."] },
]);
vitest("unit tests", "unit", "unit", envWithout("DATABASE_URL"));
vitest("api tests on PGlite", "api", "api-pglite", envWithout("DATABASE_URL"));
if (process.env.DATABASE_URL) {
  // Only what differs between the engines runs twice (tests/api/engine-dependent.ts).
  vitest("api tests on PostgreSQL (engine-dependent files)", "api", "api-postgres", process.env, engineDependentApiTests);
} else {
  console.log("\n(api tests on PostgreSQL skipped: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test, to run them)");
}

// The site and the compiled services (build/services), which the browser tests run as `npm start` does.
if (step("production build", "npm", ["run", "build"])) {
  if (process.env.DATABASE_URL) {
    // Two api and two web processes on one scratch database of the server (tests/scale/scale-out.test.ts).
    vitest("scale-out on PostgreSQL (2 api + 2 web)", "scale", "scale", process.env);
  }
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
    addPlaywright("browser tests", report);
  }
}

console.log("\nTime per step:");
for (const { name, seconds, ok } of stepTimes) console.log(`  ${ok ? "✔" : "✘"} ${seconds.toFixed(1).padStart(7)} s  ${name}`);
console.log(`  = ${((Date.now() - runStarted) / 1000).toFixed(1).padStart(7)} s  in all`);
console.log("\nThe 20 slowest tests:");
for (const { step: where, name, ms } of durations.sort((a, b) => b.ms - a.ms).slice(0, 20)) {
  console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}  (${where})`);
}
if (flakyTests.length > 0) {
  console.log("\nFlaky tests (failed, then passed on a retry: fix them):");
  for (const name of flakyTests) console.log(`  ${name}`);
}
console.log("");
if (failedSteps.length > 0) console.log(`Failed steps: ${failedSteps.join(", ")}`);
console.log(`Tests: ${total.passed} passed, ${total.flaky} flaky, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failedSteps.length > 0 || total.failed > 0 ? 1 : 0);
