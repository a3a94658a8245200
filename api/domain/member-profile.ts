import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDatabase } from "../db/prepared";
import { photos, profiles } from "../db/schema";
import type { MemberProfile } from "#contract/members";
import { visiblePhotoCount } from "#contract/photos";
import { profileChoiceFields, type ProfileChoiceField } from "#contract/profile";
import { ageOn } from "#contract/age";

/** The member page's two queries (api/db/prepared.ts); the profile's in two shapes: for a member ("viewer") or a visitor. */
const memberPageQueries = preparedPerDatabase((db, shape) => ({
  profile: db
    .select()
    .from(profiles)
    .where(
      and(
        eq(profiles.id, sql.placeholder("profileId")),
        eq(profiles.siteId, sql.placeholder("siteId")),
        eq(profiles.status, "active"),
        shape === "viewer" ? ne(profiles.userId, sql.placeholder("viewerUserId")) : undefined,
      ),
    )
    .limit(1)
    .prepare(`member_profile.${shape}`),
  photos: db
    .select({ filename: photos.filename, thumb_filename: photos.thumbFilename })
    .from(photos)
    .where(and(eq(photos.profileId, sql.placeholder("profileId")), eq(photos.status, "active")))
    .orderBy(asc(photos.position), asc(photos.id))
    .prepare("member_photos"),
}));

/**
 * Another member's profile for the member page: only active profiles of the same site, never the
 * viewer's own (that is /profile). Photos: the active ones in the member's order, as many as the
 * viewer may see (docs/product.md §6), and how many there are in all.
 */
export async function memberProfile(
  db: Db,
  site: { id: number; visibleProfileFields: string[] },
  profileId: number,
  viewer: { userId: number; paidUser: boolean } | null,
  today = new Date(),
): Promise<MemberProfile | null> {
  const siteId = site.id;
  const viewerUserId = viewer?.userId ?? null;
  const queries = memberPageQueries(db, viewerUserId === null ? "visitor" : "viewer");
  const [row] = await queries.profile.execute({ profileId, siteId, viewerUserId });
  if (!row) return null;
  const rows = await queries.photos.execute({ profileId: row.id });
  // Visitors and free members see a few photos, premium members all (null).
  const shown = viewer === null ? visiblePhotoCount.visitor : viewer.paidUser ? visiblePhotoCount.premium : visiblePhotoCount.free;
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
