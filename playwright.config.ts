import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumArgs, findChromium } from "./scripts/chromium";

/**
 * Browser tests: Debian's Chromium (its headless shell; scripts/chromium.ts), JavaScript on (`js`, every test) and
 * off (`nojs`, the tests tagged @nojs), against a production
 * build started by scripts/start.ts on ports of its own (web 4100, api 4101) with a fresh PGlite
 * data directory per run. Developers use 3000/3001 and the benchmark 43xx. E2E_PORT moves the pair
 * (web E2E_PORT, api E2E_PORT + 1) so two checkouts can run their suites side by side.
 */
const webPort = Number(process.env.E2E_PORT ?? 4100);
const apiPort = webPort + 1;
const baseURL = `http://localhost:${webPort}`;

// The config is loaded by the runner and again by every worker; workers inherit the runner's
// environment, so only the runner creates (and at its exit removes) the data directory.
function runDataDir(): string {
  const inherited = process.env.E2E_DATA_DIR;
  if (inherited) return inherited;
  const dir = mkdtempSync(path.join(os.tmpdir(), "rendezvous-e2e-"));
  process.env.E2E_DATA_DIR = dir;
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const dataDir = runDataDir();
// The shared secret of POST /api/mail-events.php for this run (tests/e2e/notifications.spec.ts posts bounces with it).
process.env.E2E_MAIL_EVENTS_SECRET ??= randomBytes(24).toString("base64url");
// The bearer token of both services' /metrics for this run (tests/e2e/metrics.spec.ts scrapes them with it).
process.env.E2E_METRICS_TOKEN ??= randomBytes(24).toString("base64url");

const chromiumLaunchOptions = { executablePath: findChromium() ?? "/usr/bin/chromium-headless-shell", args: chromiumArgs };

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: "list",
  timeout: 45_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: chromiumLaunchOptions,
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "off",
    video: "off",
    // The site's service worker (public/sw-push.js) answers navigations; tests that need it allow it (push, client edges).
    serviceWorkers: "block",
  },
  projects: [
    // Activated members made once, before the tests (tests/e2e/member-pool.setup.ts): a test logs one in.
    { name: "member pool", testMatch: /member-pool\.setup\.ts$/ },
    { name: "js", use: { javaScriptEnabled: true }, dependencies: ["member pool"] },
    // Without JavaScript only the tests tagged @nojs: forms and progressive enhancement, where the page's
    // behaviour differs. Read-only page checks and request-only checks run once, above (docs/testing.md).
    // After the js project: the operator desk's tests share the demo operator, who holds one conversation at a time
    // (docs/staff.md), so a test's js and nojs runs must not claim at once.
    { name: "nojs", use: { javaScriptEnabled: false }, grep: /@nojs/, dependencies: ["member pool", "js"] },
  ],
  webServer: {
    // Dropped from the inherited environment: DATABASE_URL (the api must use the fresh PGlite
    // directory, never a shared PostgreSQL), API_URL (start.ts would not start an api of its own), HOST.
    // Both services' logs are kept in the run's data directory: the fuzz test checks no line carries a secret.
    // The log (JSON lines, level info: every request) goes to the file only; the runner shows the rest (the
    // start banner, a crash's stack trace).
    command: `env -u DATABASE_URL -u API_URL -u HOST npm start --silent 2>&1 | tee -a ${JSON.stringify(path.join(dataDir, "server.log"))} | grep --line-buffered -v '^{'`,
    url: `${baseURL}/healthz`,
    env: {
      PORT: String(webPort),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      DEMO_DATA: "true",
      // Every request's line (tests/e2e/operator-logs.spec.ts reads them), into the run's server.log.
      LOG_LEVEL: "info",
      // Hundreds of signups and logins from one address in one run: the limits themselves are tested in tests/api.
      CLIENT_LIMIT_SCALE: "1000",
      // Cheap password hashes (scrypt 2^10): hundreds of signups and logins; tests/unit/passwords.test.ts proves production's 2^17.
      PASSWORD_HASH_COST: "10",
      // The polling fallback (when the live stream cannot be used) every 2 s instead of 60 s: tests/e2e/live-chat.spec.ts.
      USER_REFETCH_SECONDS: "2",
      // A demo, also where NODE_ENV=production or APP_MODE=production is inherited: the payment tests pay through the offline sandbox.
      APP_MODE: "demo",
      PAYMENT_SANDBOX: "true",
      // Direct debits up to 200.00 in 30 days (default 300.00), so two of the biggest package reach it: tests/e2e/direct-debit.spec.ts.
      DEBIT_LIMIT_30D: "20000",
      // Browsers on loopback may name their address in X-Forwarded-For, so a test can be a visitor from a country
      // (tests/e2e/landers.spec.ts: the entry warning for NL and DE); other tests send none and stay 127.0.0.1.
      TRUST_PROXY: "loopback",
      // A fresh secret per run rather than one generated into the data directory.
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      MAIL_EVENTS_SECRET: process.env.E2E_MAIL_EVENTS_SECRET,
      METRICS_TOKEN: process.env.E2E_METRICS_TOKEN,
      // Mailed links open this run's web (each site on its own domain), also where NODE_ENV=production is inherited.
      PUBLIC_URL: `http://{domain}:${webPort}`,
    },
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
