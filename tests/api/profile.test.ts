import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GeocodeResponse } from "#contract/profile";
import { RegionsResponse } from "#contract/settings";
import { UserResponse, type User } from "#contract/user";
import { profiles } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { yearsBefore } from "../../api/domain/members";
import { call, expectApiError, insertMember, login, startApi, type Harness } from "./harness";

/** PUT /api/profile.php as the own profile page uses it, and GET /api/geocode.php. */
let api: Harness;
const password = "profile-test-password";
let passwordHash: string;

beforeAll(async () => {
  api = await startApi();
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

/** A member of this test alone (profile: NL, no region, born 1990-01-01), logged in. */
async function newMember() {
  const member = await insertMember(api, { passwordHash });
  const token = await login(api.baseUrl, member.email, password);
  return { ...member, token };
}

async function putProfile(token: string | undefined, body: unknown): Promise<Response> {
  return call(api, "PUT", "/api/profile.php", { token, body });
}

async function currentUser(token: string): Promise<User> {
  const res = await call(api, "GET", "/api/user.php", { token });
  expect(res.status).toBe(200);
  const { user } = UserResponse.parse(await res.json());
  if (!user) throw new Error("no user for the token");
  return user;
}

async function profileRow(userId: number) {
  const [row] = await api.db.select().from(profiles).where(eq(profiles.userId, userId));
  if (!row) throw new Error("no profile row");
  return row;
}

describe("PUT /api/profile.php: who may change what", () => {
  it("asks a visitor to log in", async () => {
    await expectApiError(await putProfile(undefined, { city: "Utrecht" }), 403, "authentication_required");
  });

  it("changes only the session's own profile: ids of another member in the body are ignored", async () => {
    const me = await newMember();
    const other = await newMember();
    const before = await profileRow(other.userId);
    const res = await putProfile(me.token, { id: other.profileId, profile_id: other.profileId, user_id: other.userId, city: "Utrecht", about_me: "Mine" });
    expect(res.status).toBe(200);
    const { user } = UserResponse.parse(await res.json());
    expect(user?.id).toBe(me.userId);
    expect(user?.profile).toMatchObject({ id: me.profileId, city: "Utrecht", about_me: "Mine" });
    expect(await profileRow(other.userId)).toEqual(before);
  });
});

describe("PUT /api/profile.php: every field", () => {
  it("saves every field of the profile and GET user.php reads them back, with the member's e-mail", async () => {
    const me = await newMember();
    const update = {
      name: "Renamed Tester",
      date_of_birth: "1985-06-15",
      gender: "female",
      sexuality: "bi",
      country: "DE",
      region: "BE",
      city: "Berlin",
      about_me: "I like long walks.",
      interests: [2, 5, 5],
      hair_color: "red",
      eye_color: "green",
      body_type: "athletic",
      relationship_status: "single",
      tattoos: "some",
      signup_reason: "chat",
      invisible: true,
    };
    const res = await putProfile(me.token, update);
    expect(res.status, await res.clone().text()).toBe(200);
    const answered = UserResponse.parse(await res.json()).user;
    const user = await currentUser(me.token);
    expect(answered).toEqual(user);
    expect(user.email).toBe(me.email);
    expect(user.profile).toMatchObject({ ...update, interests: [2, 5] });
  });

  it("clears optional fields with null or an empty value", async () => {
    const me = await newMember();
    await putProfile(me.token, { region: "NH", city: "Amsterdam", hair_color: "brown", tattoos: "none", interests: [1] });
    const res = await putProfile(me.token, { region: null, city: "", hair_color: null, tattoos: null, interests: [], about_me: "" });
    expect(res.status).toBe(200);
    expect((await currentUser(me.token)).profile).toMatchObject({ region: null, city: null, hair_color: null, tattoos: null, interests: [], about_me: "" });
  });

  it("keeps the region when the country stays and drops it when the country changes without one", async () => {
    const me = await newMember();
    await putProfile(me.token, { country: "NL", region: "ZH" });
    await putProfile(me.token, { country: "NL", city: "Delft" });
    expect((await currentUser(me.token)).profile).toMatchObject({ country: "NL", region: "ZH", city: "Delft" });
    await putProfile(me.token, { country: "BE" });
    expect((await currentUser(me.token)).profile).toMatchObject({ country: "BE", region: null });
  });

  it("keeps a stored region the list no longer holds when the profile is saved unchanged, but lets no one choose it", async () => {
    // Wake Island was on the US list before the region lists dropped the uninhabited islands.
    const me = await newMember();
    await api.db.update(profiles).set({ country: "US", region: "UM-79" }).where(eq(profiles.userId, me.userId));
    const res = await putProfile(me.token, { country: "US", region: "UM-79", city: "Austin" });
    expect(res.status).toBe(200);
    expect((await currentUser(me.token)).profile).toMatchObject({ country: "US", region: "UM-79", city: "Austin" });
    const other = await newMember();
    await putProfile(other.token, { country: "US" });
    const error = await expectApiError(await putProfile(other.token, { region: "UM-79" }), 400, "validation_failed");
    expect(error.fields?.region).toEqual(["region_not_in_country"]);
    // Once changed, the old region is like any other that is not on the list.
    expect((await putProfile(me.token, { region: "TX" })).status).toBe(200);
    await expectApiError(await putProfile(me.token, { region: "UM-79" }), 400, "validation_failed");
  });

  it("accepts a member who turns exactly the minimum age today", async () => {
    const me = await newMember();
    const res = await putProfile(me.token, { date_of_birth: yearsBefore(new Date(), 18) });
    expect(res.status).toBe(200);
  });

  it("stores invisible mode on and off", async () => {
    const me = await newMember();
    expect((await currentUser(me.token)).profile.invisible).toBe(false);
    await putProfile(me.token, { invisible: true });
    expect((await currentUser(me.token)).profile.invisible).toBe(true);
    expect((await profileRow(me.userId)).invisible).toBe(true);
    await putProfile(me.token, { invisible: false });
    expect((await currentUser(me.token)).profile.invisible).toBe(false);
    expect((await profileRow(me.userId)).invisible).toBe(false);
  });
});

describe("PUT /api/profile.php: validation", () => {
  /** Each refusal: the body, the field and (where the api knows more than the schema) its code. */
  const refusals: [string, Record<string, unknown>, string, string | null][] = [
    ["a country the site does not serve", { country: "JP" }, "country", "country_not_offered"],
    ["a country that is no ISO code", { country: "Netherlands" }, "country", null],
    ["a region of another country", { country: "NL", region: "BY" }, "region", "region_not_in_country"],
    ["a region of another country than the current one", { region: "BY" }, "region", "region_not_in_country"],
    ["an unknown interest", { interests: [1, 99_999] }, "interests", "unknown_interest"],
    ["a hair colour that is no choice", { hair_color: "purple" }, "hair_color", "invalid_choice"],
    ["a reason that is no choice", { signup_reason: "money" }, "signup_reason", "invalid_choice"],
    ["a sexuality that is no choice", { sexuality: "any" }, "sexuality", null],
    ["a name that starts with @", { name: "@tester" }, "name", "name_starts_with_at"],
    ["a name of one letter", { name: "A" }, "name", null],
    ["a date that is no calendar day", { date_of_birth: "1990-02-30" }, "date_of_birth", null],
    ["a member under the minimum age", { date_of_birth: yearsBefore(new Date(), 17) }, "date_of_birth", "invalid_date_of_birth"],
    ["an age over 120", { date_of_birth: "1890-01-01" }, "date_of_birth", "invalid_date_of_birth"],
    ["invisible that is no boolean", { invisible: "yes" }, "invisible", null],
  ];

  it.each(refusals)("refuses %s with a message on the field, changing nothing", async (_label, body, field, code) => {
    const me = await newMember();
    const before = await profileRow(me.userId);
    const error = await expectApiError(await putProfile(me.token, { ...body, about_me: "should not be saved" }), 400, "validation_failed");
    expect(error.fields?.[field]?.length, JSON.stringify(error.fields)).toBeGreaterThan(0);
    if (code) expect(error.fields?.[field]).toEqual([code]);
    expect(await profileRow(me.userId)).toEqual(before);
  });

  it("refuses a name equal to the member's e-mail address, in any case", async () => {
    const me = await newMember();
    const error = await expectApiError(await putProfile(me.token, { name: me.email.toUpperCase() }), 400, "validation_failed");
    expect(error.fields?.name).toEqual(["name_is_email"]);
  });

  it("keeps the member's current country allowed even when the site no longer lists it", async () => {
    const me = await newMember();
    await api.db.update(profiles).set({ country: "JP" }).where(eq(profiles.userId, me.userId));
    const res = await putProfile(me.token, { country: "JP", city: "Tokyo" });
    expect(res.status).toBe(200);
  });
});

describe("GET /api/geocode.php", () => {
  let token: string;
  beforeAll(async () => {
    token = (await newMember()).token;
  });
  async function geocode(query: string): Promise<Response> {
    return call(api, "GET", `/api/geocode.php?${query}`, { token });
  }

  it("asks a visitor to log in", async () => {
    await expectApiError(await call(api, "GET", "/api/geocode.php?lat=52.3731&lon=4.8922"), 403, "authentication_required");
  });

  it("finds Amsterdam: NL, the region code of the region list and the city", async () => {
    const res = await geocode("lat=52.3731&lon=4.8922");
    expect(res.status).toBe(200);
    const { result } = GeocodeResponse.parse(await res.json());
    expect(result).toEqual({ country: "NL", region: "NH", city: "Amsterdam" });
    const regions = RegionsResponse.parse(await (await call(api, "GET", "/api/regions.php?country=NL")).json());
    expect(regions.regions.map((r) => r.code)).toContain(result && result.region);
  });

  it("finds other cities with their country and region", async () => {
    for (const [query, expected] of [
      ["lat=48.8566&lon=2.3522", { country: "FR", region: "IDF", city: "Paris" }],
      ["lat=51.9244&lon=4.4777", { country: "NL", region: "ZH", city: "Rotterdam" }],
    ] as const) {
      const { result } = GeocodeResponse.parse(await (await geocode(query)).json());
      expect(result).toEqual(expected);
    }
  });

  it("answers result false where nothing is near (open sea)", async () => {
    for (const query of ["lat=0&lon=-30", "lat=-48.87&lon=-123.39", "lat=53.8&lon=3"]) {
      const res = await geocode(query);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      expect(GeocodeResponse.parse(await res.json())).toEqual({ result: false });
    }
  });

  it("refuses coordinates that are no numbers or out of range with 400", async () => {
    for (const query of ["lat=abc&lon=4.9", "lat=52.3", "lat=&lon=4.9", "lat=91&lon=4.9", "lat=52.3&lon=-180.5", "lat=1e3&lon=4", "lat=52&lat=53&lon=4"]) {
      const error = await expectApiError(await geocode(query), 400, "validation_failed");
      expect(Object.keys(error.fields ?? {}).length, query).toBeGreaterThan(0);
    }
  });
});
