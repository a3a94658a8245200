import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import { photos, profiles, users } from "../db/schema";
import type { MemberProfile } from "#contract/members";
import { visiblePhotoCount } from "#contract/photos";
import { profileChoiceFields, type ProfileChoiceField } from "#contract/profile";
import { ageOn } from "#contract/age";

/**
 * Another member's profile for the member page: only active profiles of the same site, never the
 * viewer's own (that is /profile). Photos: the active ones in the member's order, as many as the
 * viewer may see (spec 6), and how many there are in all.
 */
export async function memberProfile(
  db: Db,
  site: { id: number; visibleProfileFields: string[] },
  profileId: number,
  viewerUserId: number | null,
  today = new Date(),
): Promise<MemberProfile | null> {
  const siteId = site.id;
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
  const shown = await visiblePhotosFor(db, viewerUserId);
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.dateOfBirth, today),
    gender: row.gender,
    city: row.city,
    region: row.region,
    country: row.country,
    about_me: row.aboutMe,
    // Optional fields only where the site shows them (settings.visible_profile_fields), as /profile edits them.
    interests: site.visibleProfileFields.includes("interests") ? row.interests : [],
    details: visibleDetails(row, site.visibleProfileFields),
    // Only the visible ones leave the api: the names of the others are unguessable and stay unknown.
    photos: shown === null ? rows : rows.slice(0, shown),
    photo_count: rows.length,
    fictional: row.fictional,
  };
}

const detailColumns = {
  hair_color: "hairColor",
  eye_color: "eyeColor",
  body_type: "bodyType",
  relationship_status: "relationshipStatus",
  tattoos: "tattoos",
  signup_reason: "signupReason",
} as const satisfies Record<ProfileChoiceField, keyof typeof profiles.$inferSelect>;

function visibleDetails(row: typeof profiles.$inferSelect, visible: string[]): MemberProfile["details"] {
  const details: MemberProfile["details"] = {};
  for (const field of profileChoiceFields) {
    const value = row[detailColumns[field]];
    if (visible.includes(field) && value) details[field] = value;
  }
  return details;
}

/** How many photos of another member the viewer sees: visitors and free members a few, premium members all (null). */
async function visiblePhotosFor(db: Db, viewerUserId: number | null): Promise<number | null> {
  if (viewerUserId === null) return visiblePhotoCount.visitor;
  const [viewer] = await db.select({ paidUser: users.paidUser }).from(users).where(eq(users.id, viewerUserId)).limit(1);
  return viewer?.paidUser ? visiblePhotoCount.premium : visiblePhotoCount.free;
}
