import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../api/domain/passwords";
import { createWebApp } from "../../server/app";
import { loadWebConfig } from "../../server/config";
import { rawRequest } from "../raw-http";
import { insertMember, startApi, type Harness } from "./harness";

/**
 * web in front of a real api, as server/app.ts wires them (the proxy and the request guard; no pages: a stand-in for
 * Vite passes every page request on). A non-canonical path (`//`, `/./`, `%2F`) is refused before the guard, the
 * proxy and the api read it: the guard compared the exact path, and the proxy collapsed `//` when forwarding, so
 * `GET /api//logout.php` from anywhere ended the session.
 */
let api: Harness;
let web: Server;
let base = "";
const password = "canonical-path-password";

beforeAll(async () => {
  api = await startApi();
  const config = loadWebConfig({ NODE_ENV: "test", API_URL: api.baseUrl, LOG_LEVEL: "silent", TRUST_PROXY: "false" });
  const logger = pino({ level: "silent" }, new Writable({ write: (_c, _e, callback) => callback() }));
  const vite = { middlewares: (_req: unknown, _res: unknown, next: () => void) => next() } as unknown as ViteDevServer;
  const app = createWebApp({ config, logger, vite });
  web = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => {
    web?.close(resolve);
    web?.closeAllConnections();
  });
  await api?.close();
});

/** A member logged in through web: its session cookie. */
async function loggedIn(): Promise<string> {
  const { email } = await insertMember(api, { passwordHash: await hashPassword(password) });
  const res = await fetch(`${base}/api/user.php`, { method: "POST", headers: { "Content-Type": "application/json", Origin: base, Host: "localhost" }, body: JSON.stringify({ email, password }) });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("rdv_session="));
  if (!cookie) throw new Error("no session cookie");
  return cookie.split(";")[0]!;
}

/** A GET sent as written (fetch would resolve `/./` and `/../` before sending). */
async function rawGet(port: number, path: string, headers: Record<string, string>) {
  return rawRequest({ port, requestLine: `GET ${path} HTTP/1.1`, headers: [["Host", "localhost"], ...Object.entries(headers)] });
}
const portOf = (url: string) => Number(new URL(url).port);

async function loggedInStill(cookie: string): Promise<boolean> {
  const res = await fetch(`${base}/api/user.php`, { headers: { Cookie: cookie, Host: "localhost" } });
  return ((await res.json()) as { user: unknown }).user !== null;
}

describe("one canonical path for web's guard, its proxy and the api", () => {
  it("cross-site or without headers, /api//logout.php and its variants are refused like /api/logout.php, and the session is kept", async () => {
    const cookie = await loggedIn();
    const variants = ["/api//logout.php", "/api///logout.php", "//api/logout.php", "/api/./logout.php", "/api/x/../logout.php", "/api%2Flogout.php", "/api/logout.php/", "/api//auto-like.php"];
    const wrong: string[] = [];
    for (const path of variants) {
      for (const headers of [{}, { "Sec-Fetch-Site": "cross-site" }, { Origin: "https://evil.example" }] as Record<string, string>[]) {
        const res = await rawGet(portOf(base), path, { Cookie: cookie, ...headers });
        if (res.status !== 403 || res.headers["set-cookie"] !== undefined) wrong.push(`${path} ${JSON.stringify(headers)} -> ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await loggedInStill(cookie)).toBe(true);
  });

  it("from this site, a non-canonical path is refused with 400 before the proxy; the canonical one logs out", async () => {
    const cookie = await loggedIn();
    for (const path of ["/api//logout.php", "/api/./logout.php", "/api%2Flogout.php", "/api/%2E/logout.php"]) {
      const res = await rawGet(portOf(base), path, { Cookie: cookie, Origin: "http://localhost" });
      expect(res.status, path).toBe(400);
      expect(res.headers["set-cookie"], path).toBeUndefined();
    }
    expect(await loggedInStill(cookie)).toBe(true);
    expect((await rawGet(portOf(base), "/api/logout.php", { Cookie: cookie, Origin: "http://localhost" })).status).toBe(200);
    expect(await loggedInStill(cookie)).toBe(false);
  });

  it("the api itself refuses a non-canonical path with 400 (web never forwards one)", async () => {
    for (const path of ["/api//logout.php", "/api/./settings.php", "/api%2Fsettings.php"]) {
      expect((await rawGet(portOf(api.baseUrl), path, {})).status, path).toBe(400);
    }
  });
});
