import { expect, inject } from "vitest";
import { ApiError } from "#contract/errors";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Writable } from "node:stream";
import { lookup } from "node:dns";
import { simpleParser } from "mailparser";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { createApiApp } from "../../api/app";
import type { EventHub } from "../../api/events/hub";
import { loadApiConfig } from "../../api/config";
import { createLogger } from "../../api/logger";
import { openDatabase, type Database, type Db } from "../../api/db/client";
import * as schema from "../../api/db/schema";
import { demoAccounts, demoPassword } from "../../api/db/seed";
import { copyTemplate, testHashCost } from "./template-database";
import { clearSiteCache, type SiteCache } from "../../api/domain/sites";
import { sessionCookieName } from "../../api/domain/sessions";
import type { PushEndpointPolicy } from "../../api/services/push-endpoint";
import { watchAnswer } from "./answer-check";

export { demoAccounts, demoPassword, sessionCookieName };

export type Harness = {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  db: Db;
  kind: Database["kind"];
  /** Plain SQL on a connection of its own (api/db/client.ts SqlSession). */
  session: Database["session"];
  /** The api's DATA_DIR (mail/ and uploads/ live here). */
  dataDir: string;
  /** Every log line the api wrote so far (level debug and up), as written. */
  logLines: string[];
  /** The live-event hub of this instance (its open streams). */
  hub: EventHub;
  close: () => Promise<void>;
};

/** A parsed mail from DATA_DIR/mail. */
export type Mail = { file: string; to: string; from: string; subject: string; text: string; html: string };

/** Every table of api/db/schema.ts, by its SQL name. */
export const schemaTables: string[] = Object.values(schema as Record<string, unknown>).flatMap((value) =>
  is(value, PgTable) ? [getTableName(value)] : [],
);

export type StartOptions = {
  env?: Record<string, string>;
  /** The event stream's heartbeat in ms (api/events/hub.ts; 15 s by default): tests of ended sessions shorten it. */
  eventsHeartbeatMs?: number;
  /**
   * A further api instance on the PostgreSQL database another harness of this file already reset and
   * seeded (scale-out tests): nothing is emptied or seeded. Needs DATABASE_URL (PGlite is per instance).
   */
  sharedDatabase?: boolean;
  /** How push endpoints resolve (api/services/push-endpoint.ts); default: testPushEndpoints. */
  pushEndpoints?: PushEndpointPolicy;
};

/** The push service name the api tests subscribe with: resolves to a public address here, without DNS. */
export const testPushHost = "push.example.com";

/**
 * The push endpoint policy of the api tests: testPushHost is public (203.0.113.x would be refused as
 * documentation space, so a real public address stands in); every other name goes to the system resolver,
 * so `localhost` still resolves to loopback and is refused.
 */
export const testPushEndpoints: PushEndpointPolicy = {
  resolve: (hostname) =>
    hostname === testPushHost
      ? Promise.resolve(["93.184.215.14"])
      : new Promise((resolve, reject) => lookup(hostname, { all: true }, (error, found) => (error ? reject(error) : resolve(found.map((a) => a.address))))),
};

/** The database of this file's first harness: `sharedDatabase` instances join it. */
let fileDatabaseUrl: string | undefined;

/**
 * A seeded api on a random loopback port, on a copy of the pass's template database: a database of its
 * own on the PostgreSQL server when DATABASE_URL is set (dropped at close), else an in-memory PGlite.
 * One per test file, plus any `sharedDatabase` instances beside it.
 */
export async function startApi(options: StartOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "rdv-api-test-"));
  const serverUrl = process.env.DATABASE_URL || undefined;
  if (options.sharedDatabase && !fileDatabaseUrl) throw new Error("sharedDatabase needs DATABASE_URL and a first startApi() in this file: PGlite is one per instance");
  let database: Database | undefined;
  try {
    let databaseUrl: string | undefined;
    if (options.sharedDatabase) {
      databaseUrl = fileDatabaseUrl;
      database = await openDatabase({ databaseUrl, dataDir: null });
    } else {
      // A copy of the pass's seeded template (tests/api/global-setup.ts): no file migrates or seeds on its own.
      const copy = await copyTemplate(inject("apiTemplate"), serverUrl, dataDir);
      database = copy.database;
      databaseUrl = copy.databaseUrl;
      fileDatabaseUrl = databaseUrl;
      clearSiteCache();
    }
    const config = loadApiConfig({
      ...process.env,
      NODE_ENV: "test",
      // The sandbox takes the test payments; tests/api/payments-production.test.ts sets production.
      APP_MODE: "demo",
      API_PORT: "0",
      API_HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: testSessionSecret,
      PASSWORD_HASH_COST: String(testHashCost),
      LOG_LEVEL: "silent",
      TRUST_PROXY: "loopback",
      // Test files sign up and log in far more often than a person; the limits test sets 1.
      CLIENT_LIMIT_SCALE: "1000",
      DEMO_DATA: "false",
      // Links in mails: the site's domain over http, whatever host or scheme a request names (docs/security.md).
      PUBLIC_URL: "http://{domain}",
      ...options.env,
    });
    // Log lines are kept, not printed, so a test can check none carries an address, password or token.
    const logLines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        callback();
      },
    });
    // The api's own logger (its redaction included), writing into the sink.
    const logger = createLogger("api", "debug", sink);
    const opened = database;
    const app = createApiApp({ database: opened, config, logger, eventsHeartbeatMs: options.eventsHeartbeatMs, pushEndpoints: options.pushEndpoints ?? testPushEndpoints });
    // Each answer is checked against the OpenAPI document as it goes out (tests/api/answer-check.ts).
    const server = createServer((req, res) => {
      watchAnswer(req, res);
      app(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      db: opened.db,
      kind: opened.kind,
      session: opened.session,
      dataDir,
      logLines,
      hub: app.locals.hub as EventHub,
      close: async () => {
        // Open event streams end and the bus listener stops before the database closes under them.
        await (app.locals.hub as EventHub).stop();
        (app.locals.siteCache as SiteCache).close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await opened.close();
        clearSiteCache();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The value of the session cookie a response sets, or null. */
export function sessionCookieOf(res: Response): { value: string; attributes: string[]; raw: string } | null {
  for (const raw of res.headers.getSetCookie()) {
    const [pair = "", ...attributes] = raw.split(";").map((part) => part.trim());
    const eq = pair.indexOf("=");
    if (pair.slice(0, eq) === sessionCookieName) return { value: decodeURIComponent(pair.slice(eq + 1)), attributes, raw };
  }
  return null;
}

export function cookieHeader(token: string): string {
  return `${sessionCookieName}=${token}`;
}

export async function postJson(baseUrl: string, pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${pathname}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Logs in on the default site (or the site of `host`) and returns the session token; fails the test otherwise. */
export async function login(baseUrl: string, email: string, password = demoPassword, host = "localhost"): Promise<string> {
  const res = await postJson(baseUrl, "/api/user.php", { email, password }, { "X-Forwarded-Host": host });
  if (res.status !== 200) throw new Error(`login as ${email} answered ${res.status}: ${await res.text()}`);
  const cookie = sessionCookieOf(res);
  if (!cookie?.value) throw new Error(`login as ${email} set no session cookie`);
  return cookie.value;
}

/** Every mail the api wrote to DATA_DIR/mail (no SMTP_URL), oldest first. */
export async function readMails(api: Harness): Promise<Mail[]> {
  const dir = path.join(api.dataDir, "mail");
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith(".eml")).sort();
  return Promise.all(files.map((file) => parseMail(readFileSync(path.join(dir, file)), file)));
}

export async function parseMail(source: Buffer | string, file = ""): Promise<Mail> {
  const parsed = await simpleParser(source);
  const address = (value: typeof parsed.to | typeof parsed.from) => (Array.isArray(value) ? value.map((v) => v.text).join(", ") : (value?.text ?? ""));
  return { file, to: address(parsed.to), from: address(parsed.from), subject: parsed.subject ?? "", text: parsed.text ?? "", html: typeof parsed.html === "string" ? parsed.html : "" };
}

/** The mails to one address whose link opens `linkPath` (e.g. /activate/done), oldest first. */
export async function mailsTo(api: Harness, address: string, linkPath?: string): Promise<Mail[]> {
  const all = await readMails(api);
  return all.filter((m) => m.to.toLowerCase() === address.toLowerCase() && (!linkPath || linkOf(m, linkPath) !== null));
}

/** The first link to `linkPath` in a mail's text, or null. */
export function linkOf(mail: Pick<Mail, "text">, linkPath: string): URL | null {
  for (const match of mail.text.matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.endsWith(linkPath)) return url;
  }
  return null;
}

/** The token of the newest mail to `address` with a link to `linkPath`; fails the test when there is none. */
export async function tokenFromMail(api: Harness, address: string, linkPath: string): Promise<string> {
  const mails = await mailsTo(api, address, linkPath);
  const token = mails.length ? linkOf(mails[mails.length - 1]!, linkPath)?.searchParams.get("token") : null;
  if (!token) throw new Error(`no mail with a ${linkPath} link`);
  return token;
}

/** Log lines that contain an e-mail address or any of the given secrets (passwords, tokens). */
export function leakingLogLines(api: Harness, secrets: Iterable<string>): string[] {
  const needles = [...secrets].filter((s) => s.length >= 6);
  return api.logLines.filter((line) => /[\w.+-]+@[\w-]+(\.[\w-]+)+/.test(line) || needles.some((n) => line.includes(n)));
}

/** A JSON request as web sends it: forwarded host (the site) and optionally the member's cookie. */
export function call(api: Harness, method: string, pathname: string, options: { body?: unknown; token?: string; host?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers: Record<string, string> = { "X-Forwarded-Host": options.host ?? "localhost", ...options.headers };
  if (options.token) headers.Cookie = cookieHeader(options.token);
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${api.baseUrl}${pathname}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

/** The SESSION_SECRET the harness gives the api (tokens are stored as its HMAC). */
export const testSessionSecret = "x".repeat(40);

let memberCounter = 0;

/** A member inserted straight into the database (no scrypt per account): hash a password once per file and pass it here. */
export async function insertMember(
  api: Harness,
  options: { passwordHash: string; email?: string; status?: "not_confirmed" | "active" | "deleted"; confirmed?: boolean; language?: string; deletedAt?: Date; host?: string; signupDate?: Date },
): Promise<{ userId: number; profileId: number; siteId: number; email: string }> {
  const email = options.email ?? `member-${Date.now()}-${++memberCounter}@example.com`;
  const status = options.status ?? "active";
  const [site] = await api.db.select({ id: schema.sites.id }).from(schema.sites).where(sql`${schema.sites.domain} = ${options.host ?? "localhost"}`);
  if (!site) throw new Error("site not seeded");
  const [user] = await api.db
    .insert(schema.users)
    .values({
      siteId: site.id,
      email,
      passwordHash: options.passwordHash,
      status,
      language: options.language ?? "en",
      emailConfirmedAt: (options.confirmed ?? status === "active") ? new Date() : null,
      deletedAt: status === "deleted" ? (options.deletedAt ?? new Date()) : null,
      ...(options.signupDate ? { signupDate: options.signupDate } : {}),
    })
    .returning({ id: schema.users.id });
  if (!user) throw new Error("member insert returned nothing");
  const [profile] = await api.db
    .insert(schema.profiles)
    .values({ userId: user.id, siteId: site.id, name: `Tester${memberCounter}`, country: "NL", status: status === "active" ? "active" : "disabled", dateOfBirth: "1990-01-01", gender: "male" })
    .returning({ id: schema.profiles.id });
  if (!profile) throw new Error("profile insert returned nothing");
  return { userId: user.id, profileId: profile.id, siteId: site.id, email };
}

/** Asserts an api error answer (status and contract error code) and returns its body. */
export async function expectApiError(res: Response, status: number, code: string): Promise<ApiError> {
  expect(res.status, code).toBe(status);
  const body = ApiError.parse(await res.json());
  expect(body.error).toBe(code);
  return body;
}
