import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, projectRoot, test } from "./fixtures";

/**
 * The web server survives its api going away: it answers a 503 error page (not a crash) while the
 * api is down and serves pages again once the api is back. Runs its own api (4111) and web (4110)
 * on the production build the main webServer made, so it never disturbs the other tests.
 */
const apiPort = 4111;
const webPort = 4110;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://localhost:${webPort}`;
const webHealth = `http://127.0.0.1:${webPort}/healthz`;

type Managed = { name: string; child: ChildProcess; output: string[] };

/** The environment for the children: the runner's, without anything that would point them elsewhere. */
function childEnv(extra: Record<string, string>, drop: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "API_URL", "HOST", "PORT", "API_PORT", "DATA_DIR", "E2E_DATA_DIR", ...drop]) Reflect.deleteProperty(env, name);
  return { ...env, LOG_LEVEL: "warn", ...extra };
}

/** `npx tsx <script>` without the npx/tsx wrapper processes: one node process per service, in its own group. */
function start(name: string, script: string, env: NodeJS.ProcessEnv): Managed {
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: projectRoot, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const managed: Managed = { name, child, output: [] };
  const keep = (chunk: Buffer) => {
    managed.output.push(chunk.toString());
    if (managed.output.length > 200) managed.output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return managed;
}

function running(managed: Managed): boolean {
  return managed.child.exitCode === null && managed.child.signalCode === null;
}

/** Signals the child's whole process group and waits for it to exit; SIGKILL after the grace time. */
async function stop(managed: Managed, signal: NodeJS.Signals = "SIGTERM", graceMs = 8000): Promise<void> {
  const { child } = managed;
  if (!running(managed) || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), sig);
    } catch {
      // The group is already gone.
    }
  };
  kill(signal);
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs));
  if ((await Promise.race([exited, timer])) === "timeout") {
    kill("SIGKILL");
    await exited;
  }
}

async function status(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

/** Polls until `url` answers 200; fails early when the process died. */
async function waitHealthy(managed: Managed, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running(managed)) throw new Error(`${managed.name} exited (${managed.child.exitCode ?? managed.child.signalCode}):\n${managed.output.join("")}`);
    if ((await status(url)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${managed.name} not healthy at ${url} within ${timeoutMs} ms:\n${managed.output.join("")}`);
}

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

test("when the api goes down the site answers a 503 page, and recovers when it is back", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "runs once, in the js project: it starts servers of its own");
  test.setTimeout(150_000);
  expect(existsSync(path.join(projectRoot, "build/server/index.js")), "the production build exists").toBe(true);

  dataDir = mkdtempSync(path.join(os.tmpdir(), "rendezvous-e2e-apidown-"));
  // Without NODE_ENV the api runs as in development and keeps a generated session secret in DATA_DIR.
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
