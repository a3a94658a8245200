import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { interests, profiles } from "../../db/schema";
import type { ProfileUpdate } from "#contract/account";
import type { MembersResponse } from "#contract/members";
import { memberCards } from "../members";
import type { Site } from "../sites";

export const signupMatchesLimit = 12;

/** Field errors of a profile update that the schema cannot know: the site's countries and the interests table. */
export async function profileUpdateErrors(db: Db, site: Pick<Site, "countries">, update: ProfileUpdate): Promise<Record<string, string[]> | null> {
  const fields: Record<string, string[]> = {};
  if (update.country !== undefined && !site.countries.includes(update.country)) fields.country = ["country_not_offered"];
  const wanted = [...new Set(update.interests ?? [])];
  if (wanted.length > 0) {
    const known = await db.select({ id: interests.id }).from(interests).where(inArray(interests.id, wanted));
    if (known.length !== wanted.length) fields.interests = ["unknown_interest"];
  }
  return Object.keys(fields).length > 0 ? fields : null;
}

/** PUT /api/profile.php: only the fields given change; null clears an optional field. */
export async function updateProfile(db: Db, userId: number, update: ProfileUpdate): Promise<void> {
  const set: Partial<typeof profiles.$inferInsert> = {
    gender: update.gender,
    sexuality: update.sexuality,
    country: update.country,
    region: update.region,
    city: update.city,
    aboutMe: update.about_me,
    interests: update.interests ? [...new Set(update.interests)] : undefined,
    hairColor: update.hair_color,
    eyeColor: update.eye_color,
    bodyType: update.body_type,
    relationshipStatus: update.relationship_status,
    tattoos: update.tattoos,
    signupReason: update.signup_reason,
  };
  const changes = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return;
  await db.update(profiles).set(changes).where(eq(profiles.userId, userId));
}

/** The genders a member looks for, from their own gender and sexuality. */
export function soughtGenders(gender: "male" | "female", sexuality: "hetero" | "gay" | "lesbian" | "bi"): ("male" | "female")[] {
  if (sexuality === "bi") return ["male", "female"];
  if (sexuality === "hetero") return [gender === "male" ? "female" : "male"];
  return [gender];
}

/** GET /api/signup-matches.php: up to 12 active members of the site of the sought gender, same country first. */
export async function signupMatches(db: Db, userId: number, siteId: number): Promise<MembersResponse> {
  const [own] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (!own) return { pageNumber: 1, pageSize: signupMatchesLimit, numResults: 0, results: [], similar: [] };
  const rows = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.siteId, siteId), eq(profiles.status, "active"), ne(profiles.userId, userId), inArray(profiles.gender, soughtGenders(own.gender, own.sexuality))))
    .orderBy(sql`(${profiles.country} = ${own.country}) desc`, desc(profiles.createdAt), desc(profiles.id))
    .limit(signupMatchesLimit);
  const results = await memberCards(db, rows);
  return { pageNumber: 1, pageSize: signupMatchesLimit, numResults: results.length, results, similar: [] };
}
