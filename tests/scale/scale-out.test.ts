import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "../../api/domain/staff/totp";
import { demoTotpSecret } from "../../api/db/seed-staff";
import { staffSessionCookieName } from "../../api/domain/staff/sessions";
import { childEnv, running, start, stop, waitHealthy, type Managed } from "../e2e/processes";
import { freePort } from "../../bench/processes";

/**
 * The scale-out path as a whole: two api and two web instances on one PostgreSQL database, each web
 * with its own api first and the other as its fallback (API_URL, server/api-instances.ts), as on two machines behind
 * a load balancer. Runs in `npm test` after the production build when DATABASE_URL is set, on a scratch database
 * of that server that both apis migrate and seed at once (one waits for the other: api/db/client.ts).
 */
const databaseUrl = process.env.DATABASE_URL;
const root = path.resolve(import.meta.dirname, "../..");
const jobIntervalScale = 0.02;
const settleIntervalMs = 60_000 * jobIntervalScale;

type Instance = { managed: Managed; url: string };
let scratch: { url: string; drop: () => Promise<void> } | null = null;
let sql: pg.Client;
let dataDir = "";
const apis: Instance[] = [];
const webs: Instance[] = [];
const children: Managed[] = [];

async function scratchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rdv_scale_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const scratchUrl = new URL(url);
  scratchUrl.pathname = `/${name}`;
  return { url: scratchUrl.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Logs in through a web as a browser does (the form post); the session cookie ("rdv_session=..."). */
async function logIn(web: string, email: string): Promise<string> {
  const response = await fetch(`${web}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: web },
    body: new URLSearchParams({ email, password: "demo-password" }).toString(),
    redirect: "manual",
  });
  const session = response.headers.getSetCookie().map((c) => c.split(";")[0] ?? "").find((pair) => pair.startsWith("rdv_session="));
  expect(response.status, `login as ${email} through ${web}`).toBe(302);
  if (!session) throw new Error(`login as ${email} through ${web} set no session cookie`);
  return session;
}

/** A JSON call through a web's /api, as the browser's code makes it (same origin). */
function apiCall(web: string, cookie: string, method: "GET" | "POST", pathname: string, body?: unknown): Promise<Response> {
  return fetch(`${web}${pathname}`, {
    method,
    headers: { cookie, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json", origin: web }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

type LiveEvent = { id: number; event: string; data: unknown; at: number };

/**
 * The member's live stream through a web, as app/features/chat/live-client.ts keeps it: on an end or an error it
 * reconnects (here after 200 ms) with the last event id, and the api replays what came meanwhile.
 */
function openStream(web: string, cookie: string) {
  const events: LiveEvent[] = [];
  let lastId: number | null = null;
  let connections = 0;
  let closed = false;
  const controller = new AbortController();
  const connect = async (): Promise<void> => {
    while (!closed) {
      try {
        const url = lastId === null ? `${web}/api/events.php` : `${web}/api/events.php?last_event_id=${lastId}`;
        const response = await fetch(url, { headers: { cookie, accept: "text/event-stream" }, signal: controller.signal });
        if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}`);
        connections += 1;
        const decoder = new TextDecoder();
        let buffer = "";
        const reader = response.body.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          buffer += decoder.decode(read.value, { stream: true });
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const field = (name: string) => block.split("\n").find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
            const id = field("id");
            const event = field("event");
            if (id === undefined || event === undefined) continue;
            lastId = Number(id);
            events.push({ id: Number(id), event, data: JSON.parse(field("data") ?? "null"), at: Date.now() });
          }
        }
      } catch {
        // Ended or refused: reconnect below, as the browser does.
      }
      if (!closed) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const done = connect();
  return {
    events,
    connections: () => connections,
    ready: () => events.some((e) => e.event === "ready"),
    close: async () => {
      closed = true;
      controller.abort();
      await done;
    },
  };
}

const messageEvents = (events: LiveEvent[], messageId: number) => events.filter((e) => e.event === "message" && (e.data as { message?: { id?: number } }).message?.id === messageId);

async function send(web: string, cookie: string, to: number, body: string): Promise<{ id: number; conversation: number; answeredAt: number }> {
  const response = await apiCall(web, cookie, "POST", "/api/message.php", { to, body, key: randomUUID() });
  expect(response.status, await response.clone().text()).toBe(201);
  const answer = (await response.json()) as { message: { id: number; conversation_id: number } };
  return { id: answer.message.id, conversation: answer.message.conversation_id, answeredAt: Date.now() };
}

describe.skipIf(!databaseUrl)("scale-out: two api and two web instances on one PostgreSQL database", () => {
  let free = "";
  let premium = "";
  let freeProfileId = 0;

  beforeAll(async () => {
    if (!existsSync(path.join(root, "build/server/index.js"))) throw new Error("the scale-out test runs web's production build: run `npx remix vite:build` first");
    scratch = await scratchDatabase(databaseUrl!);
    sql = new pg.Client({ connectionString: scratch.url });
    dataDir = mkdtempSync(path.join(os.tmpdir(), "rdv-scale-"));
    const secret = randomBytes(32).toString("base64url");
    const [apiPorts, webPorts] = [[await freePort(), await freePort()], [await freePort(), await freePort()]];
    // Both apis start at once on the empty database: one migrates and seeds, the other waits for it and finds the data.
    for (const [i, port] of apiPorts.entries()) {
      const managed = start(
        `api${i + 1}`,
        "api/main.ts",
        childEnv({
          API_PORT: String(port),
          API_HOST: "127.0.0.1",
          DATABASE_URL: scratch.url,
          DATA_DIR: dataDir,
          SESSION_SECRET: secret,
          DEMO_DATA: "true",
          JOB_INTERVAL_SCALE: String(jobIntervalScale),
        }),
      );
      children.push(managed);
      apis.push({ managed, url: `http://127.0.0.1:${port}` });
    }
    for (const [i, port] of webPorts.entries()) {
      const own = apis[i]!.url;
      const other = apis[1 - i]!.url;
      const managed = start(`web${i + 1}`, "server/main.ts", childEnv({ PORT: String(port), API_URL: `${own},${other}`, NODE_ENV: "production", SETTINGS_CACHE_SECONDS: "1" }));
      children.push(managed);
      webs.push({ managed, url: `http://localhost:${port}` });
    }
    for (const api of apis) await waitHealthy(api.managed, `${api.url}/healthz`, 150_000);
    for (const web of webs) await waitHealthy(web.managed, `${web.url}/healthz`, 60_000);
    await sql.connect();
    free = await logIn(webs[0]!.url, "demo@example.com");
    premium = await logIn(webs[1]!.url, "premium@example.com");
    const row = await sql.query<{ id: number }>("select p.id from profiles p join users u on u.id = p.user_id where u.email = 'demo@example.com'");
    freeProfileId = row.rows[0]!.id;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(children.map((managed) => stop(managed, "SIGTERM", 5000)));
    await sql?.end().catch(() => undefined);
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("both apis started at once on the empty database: migrated and seeded once", async () => {
    const members = await sql.query<{ n: number }>("select count(*)::int as n from users where email in ('demo@example.com', 'premium@example.com')");
    expect(members.rows[0]!.n).toBe(2);
    const migrations = await sql.query<{ n: number; distinct: number }>('select count(*)::int as n, count(distinct hash)::int as distinct from drizzle."__drizzle_migrations"');
    expect(migrations.rows[0]!.n).toBe(migrations.rows[0]!.distinct);
  });

  it("a member logged in through web 1 is logged in on web 2", async () => {
    const page = await fetch(`${webs[1]!.url}/members`, { headers: { cookie: free }, redirect: "manual" });
    expect(page.status).toBe(200);
    const user = (await (await apiCall(webs[1]!.url, free, "GET", "/api/user.php")).json()) as { user: { email?: string } | null };
    expect(user.user?.email).toBe("demo@example.com");
  });

  it("a message sent through web 2 / api 2 reaches the stream open on web 1 / api 1 within a second, once", async () => {
    const stream = openStream(webs[0]!.url, free);
    try {
      await expect.poll(() => stream.ready(), { timeout: 10_000 }).toBe(true);
      const sent = await send(webs[1]!.url, premium, freeProfileId, "Hello across instances");
      await expect.poll(() => messageEvents(stream.events, sent.id).length, { timeout: 1000, interval: 20 }).toBe(1);
      expect(messageEvents(stream.events, sent.id)[0]!.at - sent.answeredAt).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(messageEvents(stream.events, sent.id)).toHaveLength(1);
    } finally {
      await stream.close();
    }
  });

  it("client limits count across instances: 40 typing notices a minute per account, wherever they land", async () => {
    const { conversation } = await send(webs[1]!.url, premium, freeProfileId, "Typing test");
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) {
      const web = webs[i % 2]!.url;
      statuses.push((await apiCall(web, premium, "POST", "/api/typing.php", { conversation })).status);
    }
    expect(statuses.slice(0, 40).every((s) => s >= 200 && s < 300)).toBe(true);
    expect(statuses[40]).toBe(429);
  });

  it("each job runs once per due time: one instance's claim per due time, none missed", async () => {
    const since = new Date(Date.now() + settleIntervalMs);
    await new Promise((resolve) => setTimeout(resolve, settleIntervalMs * 5));
    const runs = await sql.query<{ due_at: Date; instance: string; outcome: string | null }>(
      "select due_at, instance, outcome from job_runs where job = 'settle-payments' and due_at >= $1 and due_at < now() - make_interval(secs => $2) order by due_at",
      [since, settleIntervalMs / 1000],
    );
    expect(runs.rows.length).toBeGreaterThanOrEqual(3);
    const gaps = runs.rows.slice(1).map((row, i) => row.due_at.getTime() - runs.rows[i]!.due_at.getTime());
    expect(gaps.every((gap) => gap === settleIntervalMs)).toBe(true);
    expect(runs.rows.every((row) => row.outcome === "ok")).toBe(true);
  });

  it("a settings change made through api 1 reaches both webs", async () => {
    const login = await fetch(`${apis[0]!.url}/api/staff/login.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", password: "demo-password", code: totpCode(demoTotpSecret) }),
    });
    expect(login.status).toBe(200);
    const staff = login.headers.getSetCookie().map((c) => c.split(";")[0] ?? "").find((pair) => pair.startsWith(`${staffSessionCookieName}=`))!;
    const site = await sql.query<{ id: number }>("select id from sites where is_default");
    const id = site.rows[0]!.id;
    const read = (await (await fetch(`${apis[0]!.url}/api/staff/site.php?id=${id}`, { headers: { cookie: staff } })).json()) as { settings: Record<string, unknown>; updated_at: string };
    const title = `Scaled out ${randomBytes(3).toString("hex")}`;
    const saved = await fetch(`${apis[0]!.url}/api/staff/sites.php`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: staff },
      body: JSON.stringify({ action: "update", id, updated_at: read.updated_at, settings: { ...read.settings, index_title: title } }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    for (const web of webs) {
      await expect.poll(async () => (await (await fetch(`${web.url}/`)).text()).includes(`<title>${title}</title>`), { timeout: 5000, interval: 200 }).toBe(true);
    }
  });

  it("with api 1 killed under load, both webs keep answering and the stream on web 1 reconnects and replays what it missed", async () => {
    const stream = openStream(webs[0]!.url, free);
    await expect.poll(() => stream.ready(), { timeout: 10_000 }).toBe(true);
    const before = stream.connections();
    let loading = true;
    const results: { web: number; status: number; at: number }[] = [];
    const load = async (web: number) => {
      while (loading) {
        const started = Date.now();
        const status = await fetch(`${webs[web]!.url}/members`, { headers: { cookie: free }, redirect: "manual" })
          .then(async (r) => (await r.arrayBuffer(), r.status))
          .catch(() => 0);
        results.push({ web, status, at: started });
      }
    };
    const loaders = [load(0), load(0), load(1), load(1)];
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const killedAt = Date.now();
      await stop(apis[0]!.managed, "SIGKILL");
      expect(running(apis[0]!.managed)).toBe(false);
      const missed: number[] = [];
      for (let i = 0; i < 3; i++) {
        missed.push((await send(webs[1]!.url, premium, freeProfileId, `While api 1 is down ${i}`)).id);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      for (const id of missed) await expect.poll(() => messageEvents(stream.events, id).length, { timeout: 10_000, interval: 50 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      loading = false;
      await Promise.all(loaders);
      for (const id of missed) expect(messageEvents(stream.events, id)).toHaveLength(1);
      expect(stream.connections()).toBeGreaterThan(before);
      const after = results.filter((r) => r.at >= killedAt);
      for (const web of [0, 1]) {
        const own = after.filter((r) => r.web === web);
        expect(own.length, `requests through web ${web + 1} after the kill`).toBeGreaterThan(3);
        expect(own.filter((r) => r.status !== 200), `failed pages through web ${web + 1}`).toEqual([]);
      }
    } finally {
      loading = false;
      await Promise.all(loaders);
      await stream.close();
    }
  });
});
