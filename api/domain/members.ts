import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { photos, profiles, users } from "../db/schema";
import type { MainImage, Profile, User } from "#contract/user";
import type { MemberCard, MembersResponse } from "#contract/members";
import { isLocale } from "#contract/locales";
import { ageOn } from "#contract/age";

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
  };
}

/** The member as the api shows them to themselves, or null if the account is gone or of another site. */
export async function loadUser(db: Db, userId: number, siteId: number): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.id, userId), eq(users.siteId, siteId), inArray(users.status, ["not_confirmed", "active"])))
    .limit(1);
  if (!row || (row.users.status !== "not_confirmed" && row.users.status !== "active")) return null;
  const images = await mainImages(db, [row.profiles.id]);
  const u = row.users;
  return {
    id: u.id,
    status: row.users.status,
    credits: u.credits,
    paid_user: u.paidUser,
    signup_date: u.signupDate.toISOString(),
    language: isLocale(u.language) ? u.language : "en",
    notifications_disabled: u.notificationsDisabled,
    profile: toProfile(row.profiles, images.get(row.profiles.id) ?? null),
  };
}

/** The site's newest active members, `pageSize` a page, leaving out the viewer. */
export async function newestMembers(
  db: Db,
  siteId: number,
  viewerUserId: number | null,
  page: number,
  pageSize: number,
): Promise<MembersResponse> {
  const where = and(
    eq(profiles.siteId, siteId),
    eq(profiles.status, "active"),
    viewerUserId === null ? undefined : ne(profiles.userId, viewerUserId),
  );
  const [countRow] = await db.select({ n: sql<number>`count(*)::int` }).from(profiles).where(where);
  const rows = await db
    .select()
    .from(profiles)
    .where(where)
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { pageNumber: page, pageSize, numResults: countRow?.n ?? 0, results: await memberCards(db, rows) };
}

/** Cards (name, age, main image) for profile rows, in their order. */
export async function memberCards(db: Db, rows: ProfileRow[], today = new Date()): Promise<MemberCard[]> {
  const images = await mainImages(db, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    age: ageOn(r.dateOfBirth, today),
    city: r.city,
    country: r.country,
    main_image: images.get(r.id) ?? null,
  }));
}
