import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { createApiApp } from "../../api/app";
import { loadApiConfig } from "../../api/config";
import { openDatabase, type Database, type Db } from "../../api/db/client";
import * as schema from "../../api/db/schema";
import { demoAccounts, demoPassword, seedDemoData } from "../../api/db/seed";
import { clearSiteCache } from "../../api/domain/sites";
import { sessionCookieName } from "../../api/domain/sessions";
import { createLogger } from "../../api/logger";

export { demoAccounts, demoPassword, sessionCookieName };

export type Harness = {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  db: Db;
  kind: Database["kind"];
  close: () => Promise<void>;
};

/** Every table of api/db/schema.ts, by its SQL name. */
export const schemaTables: string[] = Object.values(schema as Record<string, unknown>).flatMap((value) =>
  is(value, PgTable) ? [getTableName(value)] : [],
);

/**
 * A seeded api on a random loopback port: PostgreSQL when DATABASE_URL is set (emptied first, so a
 * re-run on the same database starts clean), else an in-memory PGlite. One per test file.
 */
export async function startApi(): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "rdv-api-test-"));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const database = await openDatabase({ databaseUrl, dataDir: null });
  try {
    await resetDatabase(database.db);
    await seedDemoData(database.db, { uploadsDir: path.join(dataDir, "uploads") });
    clearSiteCache();
    const config = loadApiConfig({
      ...process.env,
      NODE_ENV: "test",
      API_PORT: "0",
      API_HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "x".repeat(40),
      LOG_LEVEL: "silent",
      TRUST_PROXY: "loopback",
      DEMO_DATA: "false",
    });
    const app = createApiApp({ database, config, logger: createLogger("api", config.LOG_LEVEL) });
    const server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
      s.once("error", reject);
    });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      db: database.db,
      kind: database.kind,
      close: async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await database.close();
        clearSiteCache();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function resetDatabase(db: Db): Promise<void> {
  const list = schemaTables.map((name) => `"${name}"`).join(", ");
  await db.execute(sql.raw(`TRUNCATE TABLE ${list} RESTART IDENTITY CASCADE`));
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
