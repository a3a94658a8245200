import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MembersResponse } from "#contract/members";
import { apiFor } from "../../app/utils/api.server";
import { loader as membersLoader } from "../../app/routes/members._index";
import { demoAccounts, login, sessionCookieName, startApi, type Harness } from "./harness";
import { webLoadContext } from "./web-context";

/**
 * Input the database cannot take, web's side (docs/security.md, Input): `/members?country=NL&region=%00` made web call the api 6 times (the api
 * answered 500 and web retried it as an outage) and answer 503. web now refuses the search itself (the
 * same contract schema), never retries a 4xx, and shows the search form with its message. The members
 * loader runs here as Remix runs it, against a real api, without a browser.
 */
let api: Harness;
let token: string;

beforeAll(async () => {
  api = await startApi();
  token = await login(api.baseUrl, demoAccounts.free.email);
});
afterAll(async () => {
  await api?.close();
});

function loadContext(apiUrl: string): AppLoadContext {
  return webLoadContext("web-bad-input", { apiUrl });
}

function pageRequest(pathAndQuery: string): Request {
  return new Request(`http://localhost${pathAndQuery}`, { headers: { Cookie: `${sessionCookieName}=${token}` } });
}

describe("web and a search the database cannot take", () => {
  it("/members?country=NL&region=%00 shows the search form with its message: no members call, no retry, no 503", async () => {
    const context = loadContext(api.baseUrl);
    const data = await membersLoader({ request: pageRequest("/members?country=NL&region=%00"), context, params: {} });
    expect(data).toMatchObject({ invalid: true, results: [] });
    expect(context.upstream.filter((call) => call.path === "/api/members.php")).toEqual([]);
    expect(context.upstream.every((call) => call.attempt === 1 && typeof call.status === "number" && call.status < 500)).toBe(true);
  });

  it("a 400 of the api is asked once and handed to the page, not turned into a 503", async () => {
    const context = loadContext(api.baseUrl);
    const result = await apiFor(pageRequest("/members"), context).get("/api/members.php", MembersResponse, { country: "NL", region: "\u0000" });
    expect(result).toMatchObject({ ok: false, status: 400, error: { error: "validation_failed" } });
    expect(context.upstream).toEqual([expect.objectContaining({ path: "/api/members.php", status: 400, attempt: 1 })]);
  });

  it("the same page with a good search still lists members in one call", async () => {
    const context = loadContext(api.baseUrl);
    const data = await membersLoader({ request: pageRequest("/members?country=NL&min_age=18&max_age=99"), context, params: {} });
    expect(data).toMatchObject({ invalid: false });
    expect(context.upstream.filter((call) => call.path === "/api/members.php")).toEqual([expect.objectContaining({ status: 200, attempt: 1 })]);
  });
});

describe("web's api client retries only what may pass: a GET that met a 5xx", () => {
  let stub: Server;
  let stubUrl: string;
  const hits: string[] = [];
  const answers: Record<string, { status: number; body: unknown }> = {
    "/refused": { status: 400, body: { error: "validation_failed", message: "Please check the highlighted fields.", fields: { region: ["must not contain control characters"] } } },
    "/missing": { status: 404, body: { error: "not_found", message: "Not found" } },
    "/limited": { status: 429, body: { error: "too_many_requests", message: "Too many requests, please try again later." } },
    "/broken": { status: 500, body: { error: "internal_error", message: "An error has occurred." } },
  };

  beforeAll(async () => {
    stub = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://stub").pathname;
      hits.push(`${req.method} ${path}`);
      const answer = answers[path] ?? { status: 404, body: { error: "not_found", message: "Not found" } };
      res.writeHead(answer.status, { "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => stub.close(resolve));
  });

  it.each(["/refused", "/missing", "/limited"])("GET %s (a 4xx) is asked once and answered as the api's error", async (path) => {
    hits.length = 0;
    const context = loadContext(stubUrl);
    const result = await apiFor(pageRequest("/members"), context).get(path, MembersResponse);
    expect(result).toMatchObject({ ok: false, status: answers[path]!.status });
    expect(hits).toEqual([`GET ${path}`]);
  });

  it("a GET that meets a 5xx is retried, then the page gets 503", async () => {
    hits.length = 0;
    const context = loadContext(stubUrl);
    const thrown = await apiFor(pageRequest("/members"), context)
      .get("/broken", MembersResponse)
      .then(() => null, (error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
    expect(hits.length).toBeGreaterThan(1);
  });

  it("a POST that meets a 5xx is not retried (it may have happened)", async () => {
    hits.length = 0;
    const context = loadContext(stubUrl);
    await apiFor(pageRequest("/members"), context)
      .post("/broken", MembersResponse, {})
      .catch(() => undefined);
    expect(hits).toEqual(["POST /broken"]);
  });
});
