import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, ne } from "drizzle-orm";
import { TeasersResponse } from "#contract/members";
import { photos, profiles, sites } from "../../api/db/schema";
import { call, expectApiError, startApi, type Harness } from "./harness";

/** GET /api/teasers.php: what member landings and landers show visitors. */
let api: Harness;
let siteId: number;

beforeAll(async () => {
  api = await startApi();
  const [site] = await api.db.select().from(sites).where(eq(sites.isDefault, true));
  siteId = site?.id ?? 0;
});

afterAll(async () => {
  await api.close();
});

const get = async (query: string) => call(api, "GET", `/api/teasers.php${query}`);

describe("GET /api/teasers.php", () => {
  it("shows a visitor the funnel's member and others with a photo, newest first, of this site only", async () => {
    const [chosen] = await api.db.select().from(profiles).where(and(eq(profiles.siteId, siteId), eq(profiles.status, "active"), eq(profiles.invisible, false))).limit(1);
    const res = await get(`?id=${chosen!.id}&count=6`);
    expect(res.status).toBe(200);
    const body = TeasersResponse.parse(await res.json());
    expect(body.member).toMatchObject({ id: chosen!.id, name: chosen!.name, city: chosen!.city, region: chosen!.region });
    expect(body.members).toHaveLength(6);
    expect(body.members.map((m) => m.id)).not.toContain(chosen!.id);
    for (const m of body.members) {
      expect(m.main_image?.status).toBe("active");
      // Each card shows its own photo (the demo data names them by profile id).
      expect(m.main_image?.filename).toBe(`demo/${m.id}.svg`);
      expect(m.age).toBeGreaterThanOrEqual(18);
    }
    const rows = await api.db.select({ id: profiles.id, siteId: profiles.siteId, createdAt: profiles.createdAt }).from(profiles).where(eq(profiles.siteId, siteId));
    const created = new Map(rows.map((r) => [r.id, r.createdAt.getTime()]));
    const times = body.members.map((m) => created.get(m.id));
    expect(times.every((t) => t !== undefined)).toBe(true);
    expect([...times].sort((a, b) => b! - a!)).toEqual(times);
  });

  it("filters by gender and leaves out members without an active photo", async () => {
    const body = TeasersResponse.parse(await (await get("?gender=female&count=24")).json());
    expect(body.member).toBeNull();
    const ids = body.members.map((m) => m.id);
    const genders = await api.db.select({ id: profiles.id, gender: profiles.gender }).from(profiles).where(eq(profiles.siteId, siteId));
    expect(ids.every((id) => genders.find((g) => g.id === id)?.gender === "female")).toBe(true);
    // Take the photos of the first one away: it is no longer a teaser, but still answers by id.
    const first = ids[0]!;
    await api.db.update(photos).set({ status: "rejected" }).where(eq(photos.profileId, first));
    const again = TeasersResponse.parse(await (await get(`?gender=female&count=24&id=${first}`)).json());
    expect(again.members.map((m) => m.id)).not.toContain(first);
    expect(again.member).toMatchObject({ id: first, main_image: null });
  });

  it("answers 404 for an invisible, inactive or other site's member, and 400 for bad input", async () => {
    const [hidden, elsewhere] = await Promise.all([
      api.db.select().from(profiles).where(and(eq(profiles.siteId, siteId), eq(profiles.status, "active"))).limit(1).offset(3),
      api.db.select().from(profiles).where(ne(profiles.siteId, siteId)).limit(1),
    ]);
    await api.db.update(profiles).set({ invisible: true }).where(eq(profiles.id, hidden[0]!.id));
    await expectApiError(await get(`?id=${hidden[0]!.id}`), 404, "not_found");
    await expectApiError(await get(`?id=${elsewhere[0]!.id}`), 404, "not_found");
    await expectApiError(await get("?id=999999999"), 404, "not_found");
    for (const bad of ["?id=abc", "?count=25", "?count=-1", "?gender=other", "?id=1.5"]) await expectApiError(await get(bad), 400, "validation_failed");
  });
});
