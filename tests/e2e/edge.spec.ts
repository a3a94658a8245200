import { randomUUID } from "node:crypto";
import { expect, sameOrigin, test } from "./fixtures";
import { rawRequest, type RawResponse } from "../raw-http";
import { requestLogLines } from "./server-log";
import { apiBodyLimits } from "#contract/body-limits";

/**
 * What web answers itself at its edge (docs/security.md, Input): bodies to /api capped per
 * api route before the proxy (contract/body-limits.ts, server/api-body-cap.ts), web's own refusals
 * sent with the headers of every other answer, and client mistakes logged as warnings. Request-level
 * checks over raw sockets (a body that keeps coming after the answer): once, in the js project.
 */
const fiveMegabytes = 5 * 1024 * 1024;
/** What the two sockets' kernel buffers hold at most here (tcp_wmem 4 MB + tcp_rmem 32 MB) beyond what the server reads. */
const socketBuffers = 40 * 1024 * 1024;

function portOf(baseURL: string | undefined): number {
  return Number(new URL(baseURL ?? "").port);
}

/** The three bodies web caps before proxying (contract/body-limits.ts): a member's JSON call and the two server-to-server posts (no session, no same-origin check). */
const cappedPaths = ["/api/message.php", "/api/mail-events.php", "/api/payment-notify.php?provider=sandbox"];

function expectRefusedAsTooLarge(res: RawResponse, label: string): void {
  expect(res.status, `${label} (${res.error ?? "answered"})`).toBe(413);
  expect(JSON.parse(res.body), label).toEqual({ error: "request_too_large", message: "This request is too large." });
  expect(res.headers["connection"], label).toBe("close");
  expect(res.headers["x-content-type-options"], label).toBe("nosniff");
  expect(res.headers["content-security-policy"], label).toContain("sandbox");
}

test.describe("api bodies are capped per route before the proxy", () => {
  test("a declared 5 MB body gets 413 from web at once, sent in full or not at all, on message.php, mail-events.php and payment-notify.php", async ({ baseURL }) => {
    const port = portOf(baseURL);
    for (const path of cappedPaths) {
      const head = (): [string, string][] => [["Host", `localhost:${port}`], ["Origin", baseURL!], ["Content-Type", "application/json"], ["Content-Length", String(fiveMegabytes)]];
      // Only the head: the answer comes before a byte of the body (the api, which would wait for it, is not asked).
      const early = await rawRequest({ port, requestLine: `POST ${path} HTTP/1.1`, headers: head() });
      expectRefusedAsTooLarge(early, `${path}, head only`);
      expect(early.bodyBytesSentBeforeAnswer).toBe(0);
      // The whole body as fast as the socket takes it: before, web passed it on, the api closed on it and web answered 503 (EPIPE).
      for (let i = 0; i < 3; i++) expectRefusedAsTooLarge(await rawRequest({ port, requestLine: `POST ${path} HTTP/1.1`, headers: head(), body: Buffer.alloc(fiveMegabytes, "x") }), `${path}, 5 MB sent`);
    }
  });

  test("a chunked body is counted as it streams and cut off at the cap: 413 while the client is still sending, never 200 MB read", async ({ baseURL }) => {
    const port = portOf(baseURL);
    const total = 200 * 1024 * 1024;
    for (const path of cappedPaths) {
      // With its secret, mail-events reads its body like the others (without, the api refuses on the headers: the next test).
      const secret: [string, string][] = path === "/api/mail-events.php" ? [["Authorization", `Bearer ${process.env.E2E_MAIL_EVENTS_SECRET}`]] : [];
      const res = await rawRequest({
        port,
        requestLine: `POST ${path} HTTP/1.1`,
        headers: [["Host", `localhost:${port}`], ["Origin", baseURL!], ["Content-Type", "application/json"], ["Transfer-Encoding", "chunked"], ...secret],
        chunked: { totalBytes: total },
        timeoutMs: 60_000,
      });
      expectRefusedAsTooLarge(res, `${path}, chunked`);
      // Before: the api read all 200 MB (6 s) and only then answered. Now the client stops at what the buffers took.
      expect(res.bodyBytesSentBeforeAnswer, path).toBeLessThan(apiBodyLimits.jsonBytes + socketBuffers);
    }
  });

  test("an api that answers on the headers alone: its answer arrives whole, and web stops reading the chunked body at the cap", async ({ baseURL }) => {
    const port = portOf(baseURL);
    const res = await rawRequest({
      port,
      requestLine: "POST /api/mail-events.php HTTP/1.1",
      headers: [["Host", `localhost:${port}`], ["Content-Type", "application/json"], ["Transfer-Encoding", "chunked"]],
      chunked: { totalBytes: 200 * 1024 * 1024 },
      bodyAfterAnswer: true,
      timeoutMs: 60_000,
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error: "secret_required" });
    // Sent on after the answer, the body stops at the cap and the buffers; then web closes the connection.
    expect(res.bodyBytesSent).toBeLessThan(apiBodyLimits.jsonBytes + socketBuffers);
  });

  test("the photo upload endpoint takes a photo's size: 1 MB declared is passed on to the api", async ({ baseURL }) => {
    const port = portOf(baseURL);
    const megabyte = 1024 * 1024;
    const res = await rawRequest({
      port,
      requestLine: "POST /api/photos.php HTTP/1.1",
      headers: [["Host", `localhost:${port}`], ["Origin", baseURL!], ["Content-Type", "multipart/form-data; boundary=x"], ["Content-Length", String(megabyte)]],
      body: Buffer.alloc(megabyte, "x"),
    });
    // The api's answer to a visitor, not web's 413: the body was within photos.php's cap.
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: "authentication_required" });
  });
});

test.describe("web's own refusals", () => {
  test("the guard's 403 and 413 carry nosniff and a Content-Security-Policy, on the api proxy and on pages", async ({ request }) => {
    const foreign = await request.post("/api/signup.php", { headers: { Origin: "https://evil.example" }, data: { email: "x@example.com" } });
    expect(foreign.status()).toBe(403);
    expect(foreign.headers()["x-content-type-options"]).toBe("nosniff");
    expect(foreign.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    const tooLarge = await request.post("/api/signup.php", { headers: sameOrigin, data: { email: "x".repeat(70 * 1024) } });
    expect(tooLarge.status()).toBe(413);
    expect(tooLarge.headers()["x-content-type-options"]).toBe("nosniff");
    expect(tooLarge.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    for (const [status, res] of [
      [403, await request.post("/login", { headers: { ...form, Origin: "https://evil.example" }, data: "email=x", maxRedirects: 0 })],
      [413, await request.post("/login", { headers: { ...form, ...sameOrigin }, data: `email=${"x".repeat(70 * 1024)}`, maxRedirects: 0 })],
    ] as const) {
      expect(res.status()).toBe(status);
      expect(res.headers()["x-content-type-options"], `page ${status}`).toBe("nosniff");
      expect(res.headers()["content-security-policy"], `page ${status}`).toContain("default-src 'self'");
    }
  });

  test("client mistakes are logged as warnings, never as errors: an unknown page, a post to a page without a form, a bad api query, a hostile Host", async ({ request, baseURL }) => {
    const cases: { label: string; send: (id: string) => Promise<number>; status: number; api?: boolean }[] = [
      { label: "unknown page", status: 404, send: async (id) => (await request.get("/no/such/page", { headers: { "X-Request-Id": id } })).status() },
      { label: "POST to a page without an action", status: 405, send: async (id) => (await request.post("/pricing", { headers: { ...sameOrigin, "Content-Type": "application/x-www-form-urlencoded", "X-Request-Id": id }, data: "a=b", maxRedirects: 0 })).status() },
      { label: "bad api query", status: 400, api: true, send: async (id) => (await request.get("/api/settings.php?domain=%00", { headers: { "X-Request-Id": id } })).status() },
      {
        label: "hostile Host",
        status: 400,
        send: async (id) => (await rawRequest({ port: portOf(baseURL), requestLine: "GET /login HTTP/1.1", headers: [["Host", "a b"], ["X-Request-Id", id]] })).status,
      },
    ];
    for (const { label, send, status, api } of cases) {
      // Under 40 characters: a longer run would be censored in the log as token-like (contract/log-redaction.ts).
      const id = `edge-log-${randomUUID().slice(0, 8)}`;
      expect(await send(id), label).toBe(status);
      // Both services log their line in their own time: web's awaited, then the api's, and the lines read after both.
      let lines = await requestLogLines(id);
      if (api) lines = await requestLogLines(id, "api");
      const requestLines = lines.filter((line) => line.res !== undefined);
      expect(requestLines.map((line) => [line.service, line.res?.statusCode, line.level]), label).toEqual(api ? expect.arrayContaining([["web", status, 40], ["api", status, 40]]) : [["web", status, 40]]);
      expect(lines.filter((line) => line.level >= 50), label).toEqual([]);
    }
  });
});
