import { and, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client";
import { interests, profiles, users } from "../../db/schema";
import type { ProfileUpdate } from "#contract/account";
import type { MembersResponse } from "#contract/members";
import { ageOn } from "#contract/age";
import { regionsOf } from "../../services/regions";
import { offeredTo } from "../visibility";
import { memberCards } from "../members";
import type { Site } from "../sites";
import { maxAge } from "./signup";

export const signupMatchesLimit = 12;

/**
 * Field errors of a profile update that the schema cannot know (codes listed in contract/profile.ts):
 * the site's countries (the member's current country stays allowed), the region of the country (the
 * member's current region stays allowed), the interests table, the name rules of docs/product.md §5
 * against the member's e-mail and the site's minimum age.
 */
export async function profileUpdateErrors(
  db: Db,
  site: Pick<Site, "countries" | "minAge">,
  userId: number,
  update: ProfileUpdate,
  now = new Date(),
): Promise<Record<string, string[]> | null> {
  const [current] = await db
    .select({ email: users.email, country: profiles.country, region: profiles.region })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!current) throw new Error("profile update for a member without a profile");
  const fields: Record<string, string[]> = {};
  if (update.name !== undefined) {
    if (update.name.toLowerCase() === current.email.toLowerCase()) fields.name = ["name_is_email"];
    else if (update.name.startsWith("@")) fields.name = ["name_starts_with_at"];
  }
  if (update.date_of_birth !== undefined) {
    const age = ageOn(update.date_of_birth, now);
    if (age < site.minAge || age > maxAge) fields.date_of_birth = ["invalid_date_of_birth"];
  }
  if (update.country !== undefined && update.country !== current.country && !site.countries.includes(update.country)) fields.country = ["country_not_offered"];
  if (update.region) {
    const country = update.country ?? current.country;
    // The member's own region stays allowed when the list no longer holds it (as their country does above): saving
    // the profile unchanged must not fail because a region was taken off the list (api/services/regions.ts).
    const kept = country === current.country && update.region === current.region;
    if (!kept && !regionsOf(country).some((r) => r.code === update.region)) fields.region = ["region_not_in_country"];
  }
  const wanted = [...new Set(update.interests ?? [])];
  if (wanted.length > 0) {
    const known = await db.select({ id: interests.id }).from(interests).where(inArray(interests.id, wanted));
    if (known.length !== wanted.length) fields.interests = ["unknown_interest"];
  }
  return Object.keys(fields).length > 0 ? fields : null;
}

/** PUT /api/profile.php: only the fields given change; null clears an optional field. */
export async function updateProfile(db: Db, userId: number, update: ProfileUpdate): Promise<void> {
  const set: PgUpdateSetSource<typeof profiles> = {
    name: update.name,
    dateOfBirth: update.date_of_birth,
    gender: update.gender,
    sexuality: update.sexuality,
    country: update.country,
    // A region belongs to its country: a new country without a region leaves none (one statement, no read).
    region:
      update.region !== undefined
        ? update.region || null
        : update.country !== undefined
          ? sql`case when ${profiles.country} = ${update.country} then ${profiles.region} else null end`
          : undefined,
    city: update.city === undefined ? undefined : update.city || null,
    aboutMe: update.about_me,
    interests: update.interests ? [...new Set(update.interests)] : undefined,
    hairColor: update.hair_color,
    eyeColor: update.eye_color,
    bodyType: update.body_type,
    relationshipStatus: update.relationship_status,
    tattoos: update.tattoos,
    signupReason: update.signup_reason,
    invisible: update.invisible,
  };
  const changes = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return;
  await db.update(profiles).set(changes).where(eq(profiles.userId, userId));
}

/**
 * GET /api/signup-matches.php: up to 12 active members of the site of the sought gender, same country first. Two
 * newest-first reads along the search's indexes (the same country, then the others), each stopping at 12, rather
 * than one sort of every member of that gender.
 */
export async function signupMatches(db: Db, userId: number, siteId: number): Promise<MembersResponse> {
  const [own] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (!own) return { pageNumber: 1, pageSize: signupMatchesLimit, numResults: 0, numResultsCapped: false, results: [], similar: [] };
  const newest = (where: SQL | undefined, limit: number) => db.select().from(profiles).where(where).orderBy(desc(profiles.createdAt), desc(profiles.id)).limit(limit);
  const near = await newest(and(offeredTo(siteId, own), eq(profiles.country, own.country)), signupMatchesLimit);
  const rest = near.length < signupMatchesLimit ? await newest(and(offeredTo(siteId, own), ne(profiles.country, own.country)), signupMatchesLimit - near.length) : [];
  const results = await memberCards(db, [...near, ...rest]);
  return { pageNumber: 1, pageSize: signupMatchesLimit, numResults: results.length, numResultsCapped: false, results, similar: [] };
}
