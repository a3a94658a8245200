import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { accounts, expect, fillLogin, expectPath, test } from "./fixtures";
import { childEnv, start, stop, waitHealthy, type Managed } from "./processes";

/**
 * What an operator reads behind the web server: one JSON line per request in each service, joined
 * by X-Request-Id, with member id, status, duration and (on web) each upstream call's timing, and
 * never an e-mail address, password or session token. Runs its own web and api 20 ports above the
 * suite's (4120 and 4121 by default; E2E_PORT moves them with the suite's).
 */
const webPort = Number(process.env.E2E_PORT ?? 4100) + 20;
const apiPort = webPort + 1;

type LogLine = {
  service?: string;
  msg?: string;
  memberId?: number | null;
  responseTime?: number;
  req?: { id?: string; method?: string; url?: string };
  res?: { statusCode?: number };
  upstream?: { method: string; path: string; status: number | string; ms: number; attempt: number }[];
};

function lines(managed: Managed): LogLine[] {
  return managed.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

const children: Managed[] = [];
let dataDir: string | null = null;

test.afterEach(async ({ page }) => {
  // The page's live stream would lose its server: close the page first (its errors would fail the test).
  await page.close();
  await Promise.all(children.map((managed) => stop(managed, "SIGTERM", 5000)));
  children.length = 0;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("request logs are joined by request id, carry member, status, duration and upstream timings, and no secrets", async ({ page, context }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "runs once: it starts servers of its own");
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "rendezvous-e2e-logs-"));
  const api = start("api", "api/main.ts", childEnv({ API_PORT: String(apiPort), API_HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info" }, ["NODE_ENV", "SESSION_SECRET"]));
  const web = start("web", "server/main.ts", childEnv({ PORT: String(webPort), API_URL: `http://127.0.0.1:${apiPort}`, NODE_ENV: "production", LOG_LEVEL: "info" }));
  children.push(api, web);
  await waitHealthy(api, `http://127.0.0.1:${apiPort}/healthz`, 90_000);
  await waitHealthy(web, `http://127.0.0.1:${webPort}/healthz`, 30_000);

  await page.goto(`http://localhost:${webPort}/login`);
  await fillLogin(page, accounts.free.email, accounts.free.password);
  await expectPath(page, "/members");
  // A document request (the client-side navigation after login is a /members.data fetch).
  await page.goto(`http://localhost:${webPort}/members`);
  await expect(page.getByTestId("member-cards")).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === "rdv_session")?.value ?? "";
  expect(session.length).toBeGreaterThan(20);

  // The members page's line on web: member, status, duration and the api calls it made.
  let webLine: LogLine | undefined;
  await expect
    .poll(() => (webLine = lines(web).find((l) => l.req?.method === "GET" && l.req.url === "/members" && l.res?.statusCode === 200)), { message: "web logged GET /members" })
    .toBeDefined();
  expect(webLine?.memberId).toEqual(expect.any(Number));
  expect(webLine?.responseTime).toEqual(expect.any(Number));
  const upstreamPaths = (webLine?.upstream ?? []).map((u) => u.path);
  // One api call for the page: members.php answers the member and the badge counts along with the results (ADR 006).
  expect(upstreamPaths).toEqual(expect.arrayContaining(["/api/members.php"]));
  for (const call of webLine?.upstream ?? []) {
    expect(call.status).toBe(200);
    expect(call.ms).toBeGreaterThanOrEqual(0);
  }

  // The api's lines for the same page carry the same request id and member.
  const requestId = webLine?.req?.id ?? "";
  const apiLines = lines(api).filter((l) => l.req?.id === requestId);
  expect(apiLines.map((l) => l.req?.url?.split("?")[0])).toEqual(expect.arrayContaining(["/api/members.php"]));
  for (const line of apiLines) {
    expect(line.memberId).toBe(webLine?.memberId);
    expect(line.res?.statusCode).toBe(200);
  }

  // No secret anywhere in either service's output.
  const everything = [...api.output, ...web.output].join("");
  expect(everything).not.toContain(accounts.free.email);
  expect(everything).not.toContain(accounts.free.password);
  expect(everything).not.toContain(session);
  expect(everything).not.toContain(encodeURIComponent(session));
});
