import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PgPreparedQuery } from "drizzle-orm/pg-core";
import { eq } from "drizzle-orm";
import { users } from "../../api/db/schema";
import { loadMe, sessionAndMe } from "../../api/domain/me";
import { sessionMember } from "../../api/domain/sessions";
import { call, demoAccounts, login, startApi, testSessionSecret, type Harness } from "./harness";

/**
 * Hot queries built once (ADR 024): building a query's SQL with drizzle's builder cost the api more than running it, so
 * the queries of the pages members open most are built once (api/db/prepared.ts) and then only executed. Once
 * warm, these calls build no query at all: a builder call here means a hot path builds its SQL per request again.
 */
let api: Harness;
let token: string;
let otherId: number;

const builders = ["select", "selectDistinct", "insert", "update", "delete", "execute"] as const;

/** The query builder calls the api makes on `api.db` while `run` runs. */
async function buildsDuring(run: () => Promise<void>): Promise<Record<string, number>> {
  const spies = builders.map((name) => [name, vi.spyOn(api.db, name)] as const);
  try {
    await run();
    return Object.fromEntries(spies.map(([name, spy]) => [name, spy.mock.calls.length]).filter(([, n]) => Number(n) > 0));
  } finally {
    for (const [, spy] of spies) spy.mockRestore();
  }
}

/** The statements the api runs while `run` runs: drizzle runs every one through PgPreparedQuery's queryWithCache (api/db/query-timing.ts). */
async function statementsDuring(run: () => Promise<void>): Promise<string[]> {
  const spy = vi.spyOn(PgPreparedQuery.prototype as unknown as { queryWithCache: (sql: string) => Promise<unknown> }, "queryWithCache");
  try {
    await run();
    return spy.mock.calls.map(([sql]) => sql);
  } finally {
    spy.mockRestore();
  }
}

async function ok(pathname: string, withToken: string | null = token): Promise<void> {
  const res = await call(api, "GET", pathname, withToken ? { token: withToken } : {});
  expect(res.status, pathname).toBe(200);
}

beforeAll(async () => {
  api = await startApi();
  token = await login(api.baseUrl, demoAccounts.free.email);
  const res = await call(api, "GET", "/api/members.php", { token });
  otherId = ((await res.json()) as { results: { id: number }[] }).results[0]!.id;
});
afterAll(async () => {
  await api?.close();
});

describe("the hottest pages' api calls build no query once warm", () => {
  const pages = () => [
    "/api/members.php?with_user=1",
    "/api/members.php?with_user=1&gender=female&country=NL&min_age=25&max_age=60",
    "/api/members.php?with_user=1&page=2",
    `/api/member.php?with_user=1&id=${otherId}`,
    "/api/user.php",
  ];

  it("a member's search (with and without filters), a member page and the member", async () => {
    for (const page of pages()) await ok(page);
    expect(await buildsDuring(async () => {
      for (const page of pages()) await ok(page);
    })).toEqual({});
  });

  it("each search shape is its own prepared query: a new filter set is built once, then not again", async () => {
    const page = "/api/members.php?with_user=1&gender=male&max_age=40";
    const first = await buildsDuring(() => ok(page));
    expect(first.select).toBeGreaterThan(0);
    expect(await buildsDuring(() => ok(page))).toEqual({});
  });
});

describe("round trips to the database a page costs", () => {
  // Each statement is a round trip to PostgreSQL, and on a busy machine two wake-ups (docs/performance-history.md).
  it("the member (every page asks for them) is one statement: the session lookup brings them along", async () => {
    const statements = await statementsDuring(() => ok("/api/user.php"));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/from "sessions"/);
  });

  it("the one statement finds what the session lookup and loadMe find apart, for an active member and one whose account is deleted", async () => {
    const [user] = await api.db.select({ id: users.id, siteId: users.siteId }).from(users).where(eq(users.email, demoAccounts.free.email));
    const apart = async () => {
      const member = await sessionMember(api.db, token, testSessionSecret, user!.siteId);
      return { member, me: member && (await loadMe(api.db, member, user!.siteId)) };
    };
    const active = await sessionAndMe(api.db, token, testSessionSecret, user!.siteId);
    expect(active?.me.user?.id).toBe(user!.id);
    expect(active).toEqual(await apart());
    // An account neither active nor unconfirmed keeps its session (as the lookup alone finds it) but is no user to show.
    await api.db.update(users).set({ status: "deleted" }).where(eq(users.id, user!.id));
    try {
      const deleted = await sessionAndMe(api.db, token, testSessionSecret, user!.siteId);
      expect(deleted?.member.userId).toBe(user!.id);
      expect(deleted?.me).toEqual({ user: null });
      expect(deleted).toEqual(await apart());
    } finally {
      await api.db.update(users).set({ status: "active" }).where(eq(users.id, user!.id));
    }
    // Another site's session is none here.
    expect(await sessionAndMe(api.db, token, testSessionSecret, user!.siteId + 1000)).toBeNull();
  });

  it("a search with the member is two: the member with the session, the page with its count", async () => {
    expect(await statementsDuring(() => ok("/api/members.php?with_user=1"))).toHaveLength(2);
    expect(await statementsDuring(() => ok("/api/members.php?with_user=1&page=2"))).toHaveLength(2);
    // A page past the last has no row to carry the count: it is asked for on its own.
    expect(await statementsDuring(() => ok("/api/members.php?with_user=1&page=40"))).toHaveLength(3);
    // A page past the search's bound (api/domain/members.ts searchResultsCap) reads no page at all, only the count.
    expect(await statementsDuring(() => ok("/api/members.php?with_user=1&page=999"))).toHaveLength(2);
  });
});
