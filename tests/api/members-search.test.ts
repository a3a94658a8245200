import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq, sql } from "drizzle-orm";
import { ApiError } from "#contract/errors";
import { MembersResponse } from "#contract/members";
import { ageOn } from "#contract/age";
import { profiles, sites } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { memberSearchWhere } from "../../api/domain/members";
import { call, insertMember, login, startApi, type Harness } from "./harness";

/**
 * Search filters of GET /api/members.php, on a site of its own (a copy of the default site on
 * search.localhost) so every member and date of birth is known.
 */
const host = "search.localhost";
const password = "search-password-1";

let api: Harness;
let token: string;
let siteId: number;
let viewerProfileId: number;
/** Profile ids by name. */
const ids: Record<string, number> = {};
const fillerIds: number[] = [];

/** YYYY-MM-DD of the UTC day `years` years and `days` days before today (29 Feb falls back to 28 Feb). */
function born(years: number, days = 0): string {
  const now = new Date();
  const y = now.getUTCFullYear() - years;
  const m = now.getUTCMonth();
  const d = Math.min(now.getUTCDate(), new Date(Date.UTC(y, m + 1, 0)).getUTCDate());
  return new Date(Date.UTC(y, m, d) - days * 86_400_000).toISOString().slice(0, 10);
}

type Shape = { gender: "male" | "female"; country: string; region: string | null; dateOfBirth: string; status?: "active" | "disabled" };

let order = 0;
async function addMember(passwordHash: string, shape: Shape): Promise<{ userId: number; profileId: number; email: string }> {
  const m = await insertMember(api, { passwordHash, host });
  // Newest first is the order of results: each later member is an hour older.
  const createdAt = new Date(Date.now() - ++order * 3_600_000);
  await api.db
    .update(profiles)
    .set({ gender: shape.gender, country: shape.country, region: shape.region, dateOfBirth: shape.dateOfBirth, status: shape.status ?? "active", createdAt })
    .where(eq(profiles.id, m.profileId));
  return m;
}

beforeAll(async () => {
  api = await startApi();
  const [base] = await api.db.select().from(sites).where(eq(sites.isDefault, true));
  if (!base) throw new Error("no default site");
  const { id: _id, ...copy } = base;
  const [site] = await api.db.insert(sites).values({ ...copy, domain: host, isDefault: false, loggedOutSearch: false }).returning({ id: sites.id });
  siteId = site!.id;
  const passwordHash = await hashPassword(password);

  const viewer = await addMember(passwordHash, { gender: "male", country: "NL", region: "NH", dateOfBirth: "1990-01-01" });
  viewerProfileId = viewer.profileId;
  const named: Record<string, Shape> = {
    f30today: { gender: "female", country: "NL", region: "NH", dateOfBirth: born(30) }, // 30 today
    f30tomorrow: { gender: "female", country: "NL", region: "NH", dateOfBirth: born(30, -1) }, // 29, 30 tomorrow
    f40today: { gender: "female", country: "NL", region: "UT", dateOfBirth: born(40) }, // 40 today
    f40tomorrow: { gender: "female", country: "NL", region: "UT", dateOfBirth: born(40, -1) }, // 39, 40 tomorrow
    m25: { gender: "male", country: "NL", region: "NH", dateOfBirth: born(25, 100) },
    m50: { gender: "male", country: "DE", region: "BY", dateOfBirth: born(50, 100) },
    f22: { gender: "female", country: "DE", region: "BE", dateOfBirth: born(22, 100) },
    disabled: { gender: "female", country: "NL", region: "NH", dateOfBirth: born(30), status: "disabled" },
  };
  for (const [name, shape] of Object.entries(named)) ids[name] = (await addMember(passwordHash, shape)).profileId;
  for (let i = 0; i < 25; i++) fillerIds.push((await addMember(passwordHash, { gender: "female", country: "GB", region: null, dateOfBirth: born(60, i) })).profileId);
  token = await login(api.baseUrl, viewer.email, password, host);
});
afterAll(async () => {
  await api?.close();
});

async function search(query: string, options: { token?: string | null; host?: string } = {}): Promise<Response> {
  return call(api, "GET", `/api/members.php${query}`, { token: options.token === null ? undefined : (options.token ?? token), host: options.host ?? host });
}

async function ok(query: string) {
  const res = await search(query);
  expect(res.status, query).toBe(200);
  return MembersResponse.parse(await res.json());
}

/** Every result of a search, all pages; checks the paging on the way. */
async function allResults(query: string) {
  const first = await ok(query);
  const pages = Math.max(1, Math.ceil(first.numResults / 20));
  const all = [...first.results];
  for (let page = 2; page <= pages; page++) {
    const body = await ok(`${query}${query ? "&" : "?"}page=${page}`);
    expect(body.pageNumber).toBe(page);
    expect(body.numResults).toBe(first.numResults);
    expect(body.similar).toEqual([]);
    all.push(...body.results);
  }
  expect(all).toHaveLength(first.numResults);
  return { first, ids: all.map((m) => m.id), all };
}

const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
const named = (...names: string[]) => sorted(names.map((n) => ids[n]!));

describe("GET /api/members.php search filters", () => {
  it("without filters gives every active member of the site but the viewer, newest first, 20 a page", async () => {
    const { first, ids: found } = await allResults("");
    expect(first.pageSize).toBe(20);
    expect(first.results).toHaveLength(20);
    expect(first.numResults).toBe(7 + 25);
    expect(first.similar).toEqual([]);
    expect(found).not.toContain(viewerProfileId);
    expect(found).not.toContain(ids.disabled);
    expect(sorted(found)).toEqual(sorted([...named("f30today", "f30tomorrow", "f40today", "f40tomorrow", "m25", "m50", "f22"), ...fillerIds]));
    // Insert order is newest first: profile ids ascend through the pages.
    expect(found).toEqual(sorted(found));
    const rows = await api.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.siteId, siteId)).orderBy(desc(profiles.createdAt));
    expect(found).toEqual(rows.map((r) => r.id).filter((id) => id !== viewerProfileId && id !== ids.disabled));
  });

  it("filters by gender alone", async () => {
    const male = await allResults("?gender=male");
    expect(sorted(male.ids)).toEqual(named("m25", "m50"));
    expect(male.first.similar).toEqual([]); // nothing of that gender was left out

    const female = await allResults("?gender=female");
    expect(female.first.numResults).toBe(5 + 25);
    expect(female.first.results).toHaveLength(20);
    expect(female.first.similar).toEqual([]);
    expect(sorted(female.ids)).toEqual(sorted([...named("f30today", "f30tomorrow", "f40today", "f40tomorrow", "f22"), ...fillerIds]));
  });

  it("filters by country alone (upper-cased), and pages it", async () => {
    const nl = await allResults("?country=nl");
    expect(sorted(nl.ids)).toEqual(named("f30today", "f30tomorrow", "f40today", "f40tomorrow", "m25"));
    expect(nl.all.every((m) => m.country === "NL")).toBe(true);

    const gb = await allResults("?country=GB");
    expect(gb.first.numResults).toBe(25);
    expect(gb.first.results).toHaveLength(20);
    expect(gb.first.similar).toEqual([]);
    expect(sorted(gb.ids)).toEqual(sorted(fillerIds));
    const page2 = await ok("?country=GB&page=2");
    expect(page2.results).toHaveLength(5);
    // A page past the last keeps the count (it has no row to carry it: the api counts on its own).
    const page3 = await ok("?country=GB&page=3");
    expect(page3.results).toEqual([]);
    expect(page3.numResults).toBe(25);
  });

  it("filters by region within a country; a region without a country is ignored", async () => {
    expect(sorted((await allResults("?country=NL&region=NH")).ids)).toEqual(named("f30today", "f30tomorrow", "m25"));
    expect(sorted((await allResults("?country=NL&region=UT")).ids)).toEqual(named("f40today", "f40tomorrow"));
    expect((await allResults("?country=DE&region=NH")).ids).toEqual([]);
    expect((await ok("?region=NH")).numResults).toBe(7 + 25);
  });

  it("min_age counts a member who turns that age today, not one who turns it tomorrow", async () => {
    // The fixtures are what their names say (the same rule as the age on member cards).
    expect([ageOn(born(30)), ageOn(born(30, -1)), ageOn(born(40)), ageOn(born(40, -1))]).toEqual([30, 29, 40, 39]);
    const { ids: found, all } = await allResults("?min_age=30");
    expect(found).toContain(ids.f30today);
    expect(found).not.toContain(ids.f30tomorrow);
    expect(sorted(found)).toEqual(sorted([...named("f30today", "f40today", "f40tomorrow", "m50"), ...fillerIds]));
    expect(all.every((m) => m.age >= 30)).toBe(true);
    expect(all.find((m) => m.id === ids.f30today)?.age).toBe(30);
  });

  it("max_age leaves out a member who turns max_age + 1 today, and keeps one who turns it tomorrow", async () => {
    const { ids: found, all } = await allResults("?max_age=39");
    expect(found).toContain(ids.f40tomorrow);
    expect(found).not.toContain(ids.f40today);
    expect(sorted(found)).toEqual(named("f30today", "f30tomorrow", "f40tomorrow", "m25", "f22"));
    expect(all.every((m) => m.age <= 39)).toBe(true);
    expect(all.find((m) => m.id === ids.f40tomorrow)?.age).toBe(39);
  });

  it("min_age and max_age together, also equal", async () => {
    expect(sorted((await allResults("?min_age=30&max_age=39")).ids)).toEqual(named("f30today", "f40tomorrow"));
    expect((await allResults("?min_age=30&max_age=30")).ids).toEqual([ids.f30today]);
    expect((await allResults("?min_age=40&max_age=40")).ids).toEqual([ids.f40today]);
    const sixty = await allResults("?min_age=60&max_age=99");
    expect(sorted(sixty.ids)).toEqual(sorted(fillerIds));
    for (const m of sixty.all) expect(m.age).toBeGreaterThanOrEqual(60);
  });

  it("combines all filters", async () => {
    const body = await ok("?gender=female&country=NL&region=NH&min_age=30&max_age=39&page=1");
    expect(body.results.map((m) => m.id)).toEqual([ids.f30today]);
    expect(body.numResults).toBe(1);
    expect((await ok("?gender=male&country=NL&min_age=18&max_age=30")).results.map((m) => m.id)).toEqual([ids.m25]);
    expect((await ok("?gender=male&country=GB")).results).toEqual([]);
  });

  it("treats blank fields (an HTML form left empty) as not given", async () => {
    const body = await ok("?gender=&country=&region=&min_age=&max_age=&page=");
    expect(body.pageNumber).toBe(1);
    expect(body.numResults).toBe(7 + 25);
    expect((await ok("?gender=male&country=+&min_age=")).numResults).toBe(2);
  });

  it("adds similar members of the searched gender when page 1 has fewer than 20 results", async () => {
    const body = await ok("?gender=female&country=NL&region=NH&min_age=30&max_age=39");
    expect(body.results.map((m) => m.id)).toEqual([ids.f30today]);
    // Other active women of the site, newest first, at most a page, never a result, the viewer or a disabled profile.
    const expected = [...named("f30tomorrow", "f40today", "f40tomorrow", "f22"), ...fillerIds].sort((a, b) => a - b).slice(0, 20);
    expect(body.similar.map((m) => m.id)).toEqual(expected);
    expect(body.similar.map((m) => m.id)).not.toContain(ids.disabled);

    const men = await ok("?gender=male&country=DE");
    expect(men.results.map((m) => m.id)).toEqual([ids.m50]);
    expect(men.similar.map((m) => m.id)).toEqual([ids.m25]); // not the viewer (also a man)

    // Without gender, similar is any other member; none at all when nothing matches.
    const nobody = await ok("?country=FR");
    expect(nobody.numResults).toBe(0);
    expect(nobody.similar).toHaveLength(20);
    expect(nobody.similar.map((m) => m.id)).not.toContain(viewerProfileId);

    // Only page 1 carries similar results.
    expect((await ok("?country=FR&page=2")).similar).toEqual([]);
  });

  it("never shows the viewer, whatever the filters", async () => {
    for (const query of ["", "?gender=male", "?country=NL&region=NH", "?min_age=35&max_age=40", "?gender=male&country=NL&region=NH&min_age=30&max_age=40"]) {
      const body = await ok(query);
      expect(body.results.map((m) => m.id), query).not.toContain(viewerProfileId);
      expect(body.similar.map((m) => m.id), query).not.toContain(viewerProfileId);
    }
  });

  it("answers 400 validation_failed for bad input, naming the field", async () => {
    const cases: [string, string][] = [
      ["?gender=x", "gender"],
      ["?gender=MALE", "gender"],
      ["?min_age=10", "min_age"],
      ["?max_age=100", "max_age"],
      ["?min_age=abc", "min_age"],
      ["?min_age=30.5", "min_age"],
      ["?min_age=40&max_age=30", "min_age"],
      ["?country=Netherlands", "country"],
      ["?country=N1", "country"],
      [`?country=NL&region=${"x".repeat(101)}`, "region"],
      ["?page=0", "page"],
      ["?gender=male&gender=female", "gender"],
      ["?country[a]=NL", "country"],
    ];
    for (const [query, field] of cases) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      const body = ApiError.parse(await res.json());
      expect(body.error, query).toBe("validation_failed");
      expect(Object.keys(body.fields ?? {}), query).toContain(field);
    }
    const res = await search("?min_age=40&max_age=30");
    expect(ApiError.parse(await res.json()).fields?.min_age?.[0]).toMatch(/max_age/);
  });

  it("answers 403 authentication_required to visitors (logged_out_search is off)", async () => {
    for (const siteHost of [host, "localhost", "gay.localhost"]) {
      for (const query of ["", "?gender=female&min_age=30", "?gender=x"]) {
        const res = await search(query, { token: null, host: siteHost });
        expect(res.status, `${siteHost} ${query}`).toBe(403);
        expect(ApiError.parse(await res.json()).error).toBe("authentication_required");
      }
    }
  });

  it("uses a search index on PostgreSQL (EXPLAIN)", async (ctx) => {
    if (api.kind !== "postgres") ctx.skip();
    await api.db.execute(sql`ANALYZE profiles`);
    const where = memberSearchWhere(siteId, null, { gender: "female", min_age: 30, max_age: 39 });
    // The page as the api asks for it: with the count of all results on every row (api/domain/members.ts).
    const page = api.db
      .select({ id: profiles.id, total: sql<number>`count(*) over ()` })
      .from(profiles)
      .where(where)
      .orderBy(desc(profiles.createdAt), desc(profiles.id))
      .limit(20);
    const count = api.db.select({ n: sql<number>`count(*)::int` }).from(profiles).where(where);
    const plans = await api.db.transaction(async (tx) => {
      // The tables are tiny: without this the planner rightly prefers a sequential scan.
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const explain = async (query: typeof page | typeof count) => {
        const result = (await tx.execute(sql`EXPLAIN ${query}`)) as unknown as { rows: Record<string, string>[] };
        return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
      };
      return { page: await explain(page), count: await explain(count) };
    });
    console.log(`EXPLAIN (page of results):\n${plans.page}\n\nEXPLAIN (count):\n${plans.count}`);
    expect(plans.page).toMatch(/profiles_search_(gender|place)_age_idx/);
    expect(plans.count).toMatch(/profiles_search_(gender|place)_age_idx/);
  });
});
