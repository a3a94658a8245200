import { and, asc, desc, eq, gt, inArray, lte, ne, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client";
import { photos, profiles, users } from "../db/schema";
import type { MainImage, Profile, User } from "#contract/user";
import type { MemberCard, MembersQuery, MembersResponse, Teaser, TeasersQuery, TeasersResponse } from "#contract/members";
import { isLocale } from "#contract/locales";
import { ageOn } from "#contract/age";
import { listableTo } from "./visibility";
import { preparedPerDatabase, type Bindable } from "../db/prepared";
import { planEachRun } from "../db/named-statements";

type ProfileRow = typeof profiles.$inferSelect;


/** The first active photo by position is a profile's main image. */
async function mainImages(db: Db, profileIds: number[]): Promise<Map<number, MainImage>> {
  const byProfile = new Map<number, MainImage>();
  if (profileIds.length === 0) return byProfile;
  const rows = await db
    .select()
    .from(photos)
    .where(and(inArray(photos.profileId, profileIds), eq(photos.status, "active")))
    .orderBy(asc(photos.profileId), asc(photos.position), asc(photos.id));
  for (const row of rows) {
    if (!byProfile.has(row.profileId)) {
      byProfile.set(row.profileId, { filename: row.filename, thumb_filename: row.thumbFilename, status: row.status });
    }
  }
  return byProfile;
}

/**
 * The main image of the `profiles` row in the query, as a column (the first active photo by position):
 * loadUser and the search read it with their rows instead of in a second query. Its columns are written
 * qualified by hand: drizzle leaves columns of a one-table select unqualified, and inside this subquery an
 * unqualified "id" would be the photo's.
 */
export const mainImageColumn = mainImageOf(sql.raw(`"profiles"."id"`));

/** The same for the profile `profileId` names (a column of an aliased profiles table, say). */
export function mainImageOf(profileId: SQLWrapper) {
  return sql<MainImage | string | null>`(select json_build_object('filename', mi.filename, 'thumb_filename', mi.thumb_filename, 'status', mi.status)
  from ${photos} mi where mi.profile_id = ${profileId} and mi.status = 'active' order by mi.position, mi.id limit 1)`;
}

/** node-postgres and PGlite both parse json; a driver that leaves it as text gets it parsed here. */
function mainImageValue(value: MainImage | string | null): MainImage | null {
  if (value === null) return null;
  const image = typeof value === "string" ? (JSON.parse(value) as MainImage) : value;
  return { filename: image.filename, thumb_filename: image.thumb_filename, status: image.status };
}

function toProfile(row: ProfileRow, image: MainImage | null): Profile {
  return {
    id: row.id,
    name: row.name,
    country: row.country,
    region: row.region,
    city: row.city,
    status: row.status,
    main_image: image,
    date_of_birth: row.dateOfBirth,
    gender: row.gender,
    sexuality: row.sexuality,
    about_me: row.aboutMe,
    interests: row.interests,
    hair_color: row.hairColor,
    eye_color: row.eyeColor,
    body_type: row.bodyType,
    relationship_status: row.relationshipStatus,
    tattoos: row.tattoos,
    signup_reason: row.signupReason,
    invisible: row.invisible,
  };
}

/** loadUser's query runs for every page a member opens: built once per database (and planned once per PostgreSQL connection). */
const loadUserQuery = preparedPerDatabase((db) =>
  db
    .select({ users, profiles, mainImage: mainImageColumn })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.id, sql.placeholder("userId")), eq(users.siteId, sql.placeholder("siteId")), inArray(users.status, ["not_confirmed", "active"])))
    .limit(1)
    .prepare("load_user"),
);

/** The member as the api shows them to themselves, or null if the account is gone or of another site. */
export async function loadUser(db: Db, userId: number, siteId: number): Promise<User | null> {
  const [row] = await loadUserQuery(db).execute({ userId, siteId });
  return row ? userOfRow(row) : null;
}

/** The user of a row of users, profiles and the profile's main image (mainImageColumn), or null for a closed account. */
export function userOfRow(row: { users: typeof users.$inferSelect; profiles: ProfileRow; mainImage: MainImage | string | null }): User | null {
  if (row.users.status !== "not_confirmed" && row.users.status !== "active") return null;
  const u = row.users;
  return {
    id: u.id,
    email: u.email,
    status: row.users.status,
    credits: u.credits,
    paid_user: u.paidUser,
    signup_date: u.signupDate.toISOString(),
    language: isLocale(u.language) ? u.language : "en",
    notifications_disabled: u.notificationsDisabled,
    profile: toProfile(row.profiles, mainImageValue(row.mainImage)),
  };
}

/** The filters of a search (docs/product.md §3 Search state); `region` only counts together with `country`. */
export type MemberSearch = Partial<Pick<MembersQuery, "gender" | "country" | "region" | "min_age" | "max_age">>;

/** The UTC calendar day `years` before `today`, as YYYY-MM-DD; 29 Feb becomes 28 Feb in a common year (as ageOn counts). */
export function yearsBefore(today: Date, years: number): string {
  const y = today.getUTCFullYear() - years;
  const m = today.getUTCMonth();
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = Math.min(today.getUTCDate(), lastDay);
  return `${String(y).padStart(4, "0")}-${String(m + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** A search's values as its conditions take them: bound values (memberSearchWhere) or placeholders (searchQueries). */
type SearchValues = {
  siteId: Bindable<number>;
  /** null: a visitor. */
  viewer: Bindable<number> | null;
  gender?: Bindable<NonNullable<MemberSearch["gender"]>>;
  country?: Bindable<string>;
  region?: Bindable<string>;
  /** Born on or before this day (YYYY-MM-DD): min_age. */
  bornBy?: Bindable<string>;
  /** Born after this day: max_age. */
  bornAfter?: Bindable<string>;
};
const searchFilters = ["gender", "country", "region", "bornBy", "bornAfter"] as const;

/** A search's values: its filters (`region` only with `country`), ages as birth dates (see memberSearchWhere). */
function searchValues(siteId: number, viewerProfileId: number | null, search: MemberSearch, today: Date): SearchValues & { viewer: number | null } {
  const values: SearchValues & { viewer: number | null } = { siteId, viewer: viewerProfileId };
  if (search.gender !== undefined) values.gender = search.gender;
  if (search.country !== undefined) values.country = search.country;
  if (search.country !== undefined && search.region !== undefined) values.region = search.region;
  if (search.min_age !== undefined) values.bornBy = yearsBefore(today, search.min_age);
  if (search.max_age !== undefined) values.bornAfter = yearsBefore(today, search.max_age + 1);
  return values;
}

function searchConditions(v: SearchValues): SQL | undefined {
  return and(
    eq(profiles.siteId, v.siteId),
    eq(profiles.status, "active"),
    v.viewer === null ? undefined : ne(profiles.id, v.viewer),
    listableTo(v.viewer),
    v.gender === undefined ? undefined : eq(profiles.gender, v.gender),
    v.country === undefined ? undefined : eq(profiles.country, v.country),
    v.region === undefined ? undefined : eq(profiles.region, v.region),
    v.bornBy === undefined ? undefined : lte(profiles.dateOfBirth, v.bornBy),
    v.bornAfter === undefined ? undefined : gt(profiles.dateOfBirth, v.bornAfter),
  );
}

/**
 * Conditions for a search, as plain comparisons on indexed columns: age becomes a date_of_birth range
 * (min_age: born on or before today - min_age years; max_age: born after today - (max_age + 1) years).
 * `viewerProfileId` (null: a visitor) is left out, and so is whoever listableTo hides from them:
 * invisible members and pairs where either blocked the other.
 */
export function memberSearchWhere(siteId: number, viewerProfileId: number | null, search: MemberSearch, today = new Date()): SQL | undefined {
  return searchConditions(searchValues(siteId, viewerProfileId, search, today));
}

/** Which values a search has ("viewer" and its filters): the shape of its SQL. */
function shapeOf(values: SearchValues): string {
  return [values.viewer === null ? "" : "viewer", ...searchFilters.filter((key) => values[key] !== undefined)].filter(Boolean).join("_");
}

/**
 * How far a search counts and pages: up to this many results it says how many there are, above it "more than"
 * (numResultsCapped), and its pages end there. A count or a deep page of every match would read every matching row,
 * a million on a large site (docs/performance.md); nobody pages through more than this by hand.
 */
export const searchResultsCap = 1000;

/**
 * A search's page, with the count of its results up to searchResultsCap + 1 on every row (one statement where there
 * were two), and its count alone (for a page past the last, which has no row to carry it), prepared per shape (at
 * most 2 × 2⁵ of each; api/db/prepared.ts), its values as placeholders. The page's rows are chosen first, newest
 * first along an index (api/db/schema/members.ts), and only they are joined to their main image.
 */
const searchQueries = preparedPerDatabase((db, shape) => {
  const has = new Set(shape.split("_"));
  const values: SearchValues = { siteId: sql.placeholder("siteId"), viewer: has.has("viewer") ? sql.placeholder("viewer") : null };
  for (const key of searchFilters) if (has.has(key)) values[key] = sql.placeholder(key);
  // Built once, but planned with its values on every run (ADR 026): with a birth-date range as parameters, the generic
  // plan a prepared statement settles on after five runs read every member of the range (0.4 s at a million members,
  // 5 ms planned with the values).
  const where = and(searchConditions(values), planEachRun);
  const newestFirst = [desc(profiles.createdAt), desc(profiles.id)];
  // Counted along the page's own order (an index's): with a limit and no order, a search estimated to match many
  // members but matching few would be counted by scanning the table.
  const counted = db
    .select({ one: sql`1` })
    .from(profiles)
    .where(where)
    .orderBy(...newestFirst)
    .limit(searchResultsCap + 1)
    .as("counted");
  const boundedCount = db.select({ n: sql<number>`count(*)::int`.as("n") }).from(counted);
  const chosen = db.select({ id: profiles.id }).from(profiles).where(where).orderBy(...newestFirst).limit(sql.placeholder("limit")).offset(sql.placeholder("offset"));
  return {
    count: boundedCount.prepare(`members_count.${shape}`),
    page: db
      .select({ profile: profiles, mainImage: mainImageColumn, total: sql<number>`(${boundedCount})` })
      .from(profiles)
      .where(inArray(profiles.id, chosen))
      .orderBy(...newestFirst)
      .prepare(`members_page.${shape}`),
    /** "Similar results" (used with the shape of a search by gender alone): members not on the page (`shown`, an array). */
    similar: db
      .select({ profile: profiles, mainImage: mainImageColumn })
      .from(profiles)
      .where(and(where, sql`not (${profiles.id} = any(${sql.placeholder("shown")}::int[]))`))
      .orderBy(...newestFirst)
      .limit(sql.placeholder("limit"))
      .prepare(`members_similar.${shape}`),
  };
});

/**
 * The site's newest active members matching `search`, `pageSize` a page, leaving out the viewer.
 * When page 1 has fewer than a page of results, `similar` holds up to a page of other members of the
 * searched gender only (docs/product.md §3 "similar results"); otherwise it is empty. Counted and paged up to
 * searchResultsCap: a page past it is empty.
 */
export async function newestMembers(
  db: Db,
  siteId: number,
  viewerProfileId: number | null,
  page: number,
  pageSize: number,
  search: MemberSearch = {},
  today = new Date(),
): Promise<z.output<typeof MembersResponse>> {
  const values = searchValues(siteId, viewerProfileId, search, today);
  const queries = searchQueries(db, shapeOf(values));
  const offset = (page - 1) * pageSize;
  const rows = offset < searchResultsCap ? await queries.page.execute({ ...values, limit: Math.min(pageSize, searchResultsCap - offset), offset }) : [];
  const counted = rows[0]?.total ?? (page === 1 && rows.length === 0 ? 0 : ((await queries.count.execute(values))[0]?.n ?? 0));
  // Only a filter beyond gender can leave out members of the searched gender.
  const narrowed = search.country !== undefined || search.min_age !== undefined || search.max_age !== undefined;
  let similarRows: Pick<(typeof rows)[number], "profile" | "mainImage">[] = [];
  if (page === 1 && counted < pageSize && narrowed) {
    const byGender = searchValues(siteId, viewerProfileId, { gender: search.gender }, today);
    similarRows = await searchQueries(db, shapeOf(byGender)).similar.execute({ ...byGender, shown: rows.map((r) => r.profile.id), limit: pageSize });
  }
  const card = (row: (typeof similarRows)[number]) => toCard(row.profile, mainImageValue(row.mainImage), today);
  return {
    pageNumber: page,
    pageSize,
    numResults: Math.min(counted, searchResultsCap),
    numResultsCapped: counted > searchResultsCap,
    results: rows.map(card),
    similar: similarRows.map(card),
  };
}

function toCard(r: ProfileRow, image: MainImage | null, today: Date): MemberCard {
  return { id: r.id, name: r.name, age: ageOn(r.dateOfBirth, today), city: r.city, country: r.country, main_image: image, fictional: r.fictional };
}

/** Cards (name, age, main image) for profile rows, in their order. */
export async function memberCards(db: Db, rows: ProfileRow[], today = new Date()): Promise<MemberCard[]> {
  const images = await mainImages(db, rows.map((r) => r.id));
  return rows.map((r) => toCard(r, images.get(r.id) ?? null, today));
}

/**
 * What funnels show visitors: the funnel's member by id (active, on this site, not invisible;
 * with or without a photo) and up to `count` other such members that have a photo, newest first.
 */
export async function teasers(db: Db, siteId: number, query: TeasersQuery, today = new Date()): Promise<TeasersResponse> {
  const shown = and(eq(profiles.siteId, siteId), eq(profiles.status, "active"), listableTo(null));
  const select = () => db.select({ profile: profiles, mainImage: mainImageColumn }).from(profiles);
  const toTeaser = (row: { profile: ProfileRow; mainImage: MainImage | string | null }): Teaser => ({
    ...toCard(row.profile, mainImageValue(row.mainImage), today),
    region: row.profile.region,
  });
  const [chosen] = query.id === undefined ? [] : await select().where(and(shown, eq(profiles.id, query.id)));
  const others =
    query.count === 0
      ? []
      : await select()
          .where(
            and(
              shown,
              query.id === undefined ? undefined : ne(profiles.id, query.id),
              query.gender === undefined ? undefined : eq(profiles.gender, query.gender),
              sql`exists (select 1 from ${photos} where ${photos.profileId} = ${profiles.id} and ${photos.status} = 'active')`,
            ),
          )
          .orderBy(desc(profiles.createdAt), desc(profiles.id))
          .limit(query.count);
  return { member: chosen ? toTeaser(chosen) : null, members: others.map(toTeaser) };
}
