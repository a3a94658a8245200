import { spawnSync } from "node:child_process";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { redactingLoggerOptions } from "#contract/log-redaction";
import { errorHandler } from "../../server/edge";

/**
 * Hostile requests (docs/security.md, Where requests come in): an error that reached Express was printed by Express's default handler as
 * a stack trace on stderr, outside the JSON logger. web's last handler (server/edge.ts) logs it through
 * pino and answers without a stack; a process-level failure goes the same way (contract/log-redaction.ts).
 */
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    callback();
  },
});
const logger = pino({ level: "info", base: { service: "web" }, ...redactingLoggerOptions() }, sink);
let server: Server;
let base = "";

beforeAll(async () => {
  const app = express();
  app.get("/api/broken", () => {
    throw new Error("the api proxy broke");
  });
  app.get("/broken", async (_req, _res, next) => next(new TypeError("Invalid URL")));
  app.get("/unreadable", (_req, _res, next) => next(Object.assign(new Error("request aborted"), { status: 400 })));
  app.use(errorHandler(logger));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("web's error handler", () => {
  it("logs an error through pino, not on stderr, and answers 500 without a stack, as data", async () => {
    const stderr = vi.spyOn(console, "error");
    const page = await fetch(`${base}/broken`);
    expect(page.status).toBe(500);
    expect(await page.text()).toBe("An error has occurred.");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    const api = await fetch(`${base}/api/broken`);
    expect(api.status).toBe(500);
    expect(await api.json()).toEqual({ error: "internal_error", message: "An error has occurred." });
    expect(stderr).not.toHaveBeenCalled();
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string; stack?: string } });
    expect(logged.filter((line) => line.msg === "request failed").map((line) => [line.level, line.err?.message])).toEqual([
      [50, "Invalid URL"],
      [50, "the api proxy broke"],
    ]);
    stderr.mockRestore();
  });

  it("answers a client's error (a status 4xx) with that status, logged as a warning", async () => {
    lines.length = 0;
    const res = await fetch(`${base}/unreadable`);
    expect(res.status).toBe(400);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(lines.map((line) => (JSON.parse(line) as { level: number }).level)).toEqual([40]);
  });
});

describe("a process-level failure", () => {
  it.each([
    ["an uncaught exception", "setTimeout(() => { throw new Error('boom at ' + 'startup') }, 0);"],
    ["an unhandled rejection", "void Promise.reject(new Error('boom at ' + 'startup'));"],
  ])("%s is one pino line (fatal), nothing on stderr, and exit code 1", (_label, failure) => {
    // As server/main.ts and api/main.ts set it up.
    const script = `import pino from "pino"; import { logProcessFailures, redactingLoggerOptions } from "./contract/log-redaction.ts"; logProcessFailures(pino({ base: { service: "web" }, ...redactingLoggerOptions() })); ${failure}`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const out = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { level: number; err: { message: string } });
    expect(out).toEqual([expect.objectContaining({ level: 60, err: expect.objectContaining({ message: "boom at startup" }) })]);
  }, 60_000);
});
