import { accounts, expect, expectPath, fillLogin, test } from "./fixtures";
import { requestLogLines, serverLogLines, type LogLine } from "./server-log";

/**
 * What an operator reads behind the web server: one JSON line per request in each service, joined
 * by X-Request-Id, with member id, status, duration and (on web) each upstream call's timing, and
 * never an e-mail address, password or session token. It reads the suite's own server log
 * (playwright.config.ts: level info, both services, in the run's data directory).
 */
type RequestLine = LogLine & {
  memberId?: number | null;
  responseTime?: number;
  req?: { id?: string; method?: string; url?: string };
  upstream?: { method: string; path: string; status: number | string; ms: number; attempt: number }[];
};

test("request logs are joined by request id, carry member, status, duration and upstream timings, and no secrets", async ({ page, context }) => {
  await page.goto("/login");
  await fillLogin(page, accounts.free.email, accounts.free.password);
  await expectPath(page, "/members");
  // A document request (the client-side navigation after login is a /members.data fetch), with an id to find it by.
  const requestId = `operator-${Date.now().toString(36)}`;
  await page.route((url) => url.pathname === "/members", (route) => route.continue({ headers: { ...route.request().headers(), "x-request-id": requestId } }), { times: 1 });
  await page.goto("/members");
  await expect(page.getByTestId("member-cards")).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === "rdv_session")?.value ?? "";
  expect(session.length).toBeGreaterThan(20);

  // The members page's line on web: member, status, duration and the api calls it made.
  const lines = (await requestLogLines(requestId, "web")) as RequestLine[];
  const webLine = lines.find((l) => l.service === "web" && l.req?.method === "GET" && l.req.url === "/members" && l.res?.statusCode === 200);
  expect(webLine, "web logged GET /members").toBeDefined();
  expect(webLine?.memberId).toEqual(expect.any(Number));
  expect(webLine?.responseTime).toEqual(expect.any(Number));
  // One api call for the page: members.php answers the member and the badge counts along with the results (ADR 006);
  // the site's settings, cached per domain, may be fetched again beside it.
  expect((webLine?.upstream ?? []).map((u) => u.path).filter((path) => path !== "/api/settings.php")).toEqual(["/api/members.php"]);
  for (const call of webLine?.upstream ?? []) {
    expect(call.status).toBe(200);
    expect(call.ms).toBeGreaterThanOrEqual(0);
  }

  // The api's lines for the same page carry the same request id and member.
  const apiLines = (await requestLogLines(requestId, "api")).filter((l) => l.service === "api" && l.res !== undefined) as RequestLine[];
  expect(apiLines.map((l) => l.req?.url?.split("?")[0])).toEqual(expect.arrayContaining(["/api/members.php"]));
  for (const line of apiLines) {
    expect(line.memberId).toBe(webLine?.memberId);
    expect(line.res?.statusCode).toBe(200);
  }

  // No secret anywhere in either service's log of the whole run so far.
  const everything = serverLogLines().join("\n");
  expect(everything).not.toContain(accounts.free.email);
  expect(everything).not.toContain(accounts.free.password);
  expect(everything).not.toContain(session);
  expect(everything).not.toContain(encodeURIComponent(session));
});
