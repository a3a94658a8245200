import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import { photos, profiles } from "../db/schema";
import type { MemberProfile } from "#contract/members";
import { ageOn } from "#contract/age";

/**
 * Another member's profile for the member page: only active profiles of the same site, never the
 * viewer's own (that is /profile). Photos: the active ones in the member's order.
 */
export async function memberProfile(db: Db, siteId: number, profileId: number, viewerUserId: number | null, today = new Date()): Promise<MemberProfile | null> {
  const [row] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.siteId, siteId), eq(profiles.status, "active"), viewerUserId === null ? undefined : ne(profiles.userId, viewerUserId)))
    .limit(1);
  if (!row) return null;
  const rows = await db
    .select({ filename: photos.filename, thumb_filename: photos.thumbFilename })
    .from(photos)
    .where(and(eq(photos.profileId, row.id), eq(photos.status, "active")))
    .orderBy(asc(photos.position), asc(photos.id));
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.dateOfBirth, today),
    gender: row.gender,
    city: row.city,
    region: row.region,
    country: row.country,
    about_me: row.aboutMe,
    interests: row.interests,
    photos: rows,
  };
}
