import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, projectRoot, test } from "./fixtures";
import { childEnv, running, start, status, stop, waitHealthy, type Managed } from "./processes";

/**
 * The web server survives its api going away: it answers a 503 error page (not a crash) while the
 * api is down and serves pages again once the api is back. Runs its own web and api 10 ports above the suite's (4110 and 4111 by default)
 * on the production build the main webServer made, so it never disturbs the other tests.
 */
const webPort = Number(process.env.E2E_PORT ?? 4100) + 10;
const apiPort = webPort + 1;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://localhost:${webPort}`;
const webHealth = `http://127.0.0.1:${webPort}/healthz`;

const children: Managed[] = [];
let dataDir: string | null = null;

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    for (const managed of children) {
      await testInfo.attach(`${managed.name}-output`, { body: managed.output.join(""), contentType: "text/plain" });
    }
  }
  await Promise.all(children.map((managed) => stop(managed, "SIGTERM", 5000)));
  children.length = 0;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
});

test.use({ expectedConsoleErrors: { "the 503 page is the document this test asks for while the api is down": /^Failed to load resource: the server responded with a status of 503/ } });

test("when the api goes down the site answers a 503 page, and recovers when it is back", async ({ page }) => {
  test.setTimeout(150_000);
  expect(existsSync(path.join(projectRoot, "build/server/index.js")), "the production build exists").toBe(true);

  dataDir = mkdtempSync(path.join(os.tmpdir(), "rendezvous-e2e-apidown-"));
  // In demo mode (childEnv) and without SESSION_SECRET the api keeps a generated session secret in DATA_DIR.
  const apiEnv = childEnv({ API_PORT: String(apiPort), API_HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO_DATA: "true" }, ["NODE_ENV", "SESSION_SECRET"]);
  let api = start("api", "api/main.ts", apiEnv);
  children.push(api);
  const web = start(
    "web",
    "server/main.ts",
    // Settings are normally reused for 30 s per domain; 0 makes every page ask the api, so its absence shows at once.
    childEnv({ PORT: String(webPort), API_URL: apiUrl, NODE_ENV: "production", SETTINGS_CACHE_SECONDS: "0" }),
  );
  children.push(web);
  await waitHealthy(api, `${apiUrl}/healthz`, 90_000);
  await waitHealthy(web, webHealth, 30_000);

  const up = await page.goto(`${webUrl}/`);
  expect(up?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meet exciting singles near you");

  // The api goes away.
  await stop(api);
  expect(running(api)).toBe(false);

  const down = await page.goto(`${webUrl}/`);
  expect(down?.status()).toBe(503);
  const errorPage = page.getByTestId("error-page");
  await expect(errorPage).toBeVisible();
  await expect(errorPage).toContainText("503");
  await expect(errorPage.getByRole("heading", { level: 1 })).toHaveText(/temporarily unavailable/i);
  await expect(errorPage.getByRole("link")).toHaveAttribute("href", "/");

  // Not a crash: web still runs and reports the api as its problem.
  expect(running(web), "web is still running").toBe(true);
  const health = await page.request.get(webHealth);
  expect(health.status()).toBe(503);
  const body = (await health.json()) as { checks?: { api?: string } };
  expect(body.checks?.api).toBeDefined();
  expect(body.checks?.api).not.toBe("ok");

  // The api comes back on the same port and data: pages work again within a few seconds.
  api = start("api (restarted)", "api/main.ts", apiEnv);
  children.push(api);
  await waitHealthy(api, `${apiUrl}/healthz`, 60_000);
  await expect.poll(() => status(`${webUrl}/`), { timeout: 10_000, message: "/ answers 200 again" }).toBe(200);
  const again = await page.goto(`${webUrl}/`);
  expect(again?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meet exciting singles near you");
  expect(running(web)).toBe(true);
  expect((await page.request.get(webHealth)).status()).toBe(200);
});
