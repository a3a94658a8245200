import { createConnection, createServer, type Server, type Socket } from "node:net";
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, projectRoot, test } from "./fixtures";
import { childEnv, running, start, status, stop, waitHealthy, type Managed } from "./processes";

/**
 * The web server survives its api going away: it answers a 503 error page (not a crash) while the
 * api is down and serves pages again once the api is back. Runs its own web 10 ports above the suite's (4110 by
 * default) on the production build the main webServer made, so it never disturbs the other tests. Its api is the
 * suite's, reached through a TCP relay on the next port: the api "goes down" when the relay stops listening and cuts
 * every connection it carries, which is what web meets when an api process dies (connections reset, the port
 * refused), and "comes back" when the relay listens again. A real api process killed under load is
 * tests/scale/scale-out.test.ts's.
 */
const webPort = Number(process.env.E2E_PORT ?? 4100) + 10;
const relayPort = webPort + 1;
const suiteApiPort = Number(process.env.E2E_PORT ?? 4100) + 1;
const webUrl = `http://localhost:${webPort}`;
const webHealth = `http://127.0.0.1:${webPort}/healthz`;

/** A TCP relay to the suite's api that can be taken down (listener closed, open connections cut) and brought back. */
class ApiRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection({ host: "127.0.0.1", port: suiteApiPort });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.once("close", () => this.sockets.delete(socket));
        socket.on("error", () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.once("close", () => upstream.destroy());
      upstream.once("close", () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(relayPort, "127.0.0.1", resolve));
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

const children: Managed[] = [];
const relay = new ApiRelay();

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    for (const managed of children) {
      await testInfo.attach(`${managed.name}-output`, { body: managed.output.join(""), contentType: "text/plain" });
    }
  }
  await Promise.all(children.map((managed) => stop(managed, "SIGTERM", 5000)));
  children.length = 0;
  await relay.down();
});

test.use({ expectedConsoleErrors: { "the 503 page is the document this test asks for while the api is down": /^Failed to load resource: the server responded with a status of 503/ } });

test("when the api goes down the site answers a 503 page, and recovers when it is back", async ({ page }) => {
  test.setTimeout(60_000);
  expect(existsSync(path.join(projectRoot, "build/server/index.js")), "the production build exists").toBe(true);

  await relay.up();
  const web = start(
    "web",
    "server/main.ts",
    // Settings are normally reused for 30 s per domain; 0 makes every page ask the api, so its absence shows at once.
    childEnv({ PORT: String(webPort), API_URL: `http://127.0.0.1:${relayPort}`, NODE_ENV: "production", SETTINGS_CACHE_SECONDS: "0" }),
  );
  children.push(web);
  await waitHealthy(web, webHealth, 30_000);

  const up = await page.goto(`${webUrl}/`);
  expect(up?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meet exciting singles near you");

  // The api goes away.
  await relay.down();

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

  // The api comes back on the same port: pages work again within a few seconds.
  await relay.up();
  await expect.poll(() => status(`${webUrl}/`), { timeout: 10_000, message: "/ answers 200 again" }).toBe(200);
  const again = await page.goto(`${webUrl}/`);
  expect(again?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meet exciting singles near you");
  expect(running(web)).toBe(true);
  expect((await page.request.get(webHealth)).status()).toBe(200);
});
