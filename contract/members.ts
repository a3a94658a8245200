import { z } from "zod";
import { queryId, text, wholeNumber } from "./input";
import { profileChoiceFields } from "./profile-choices";
import { MainImage, UserResponse } from "./user";

export const MemberCard = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  main_image: MainImage.nullable(),
  /** A profile run by the site (labelled with the site's fictional_* settings). */
  fictional: z.boolean(),
});
export type MemberCard = z.infer<typeof MemberCard>;

export const membersPageSize = 20;

/**
 * docs/product.md §6: visitors may search (and open profiles) only when logged_out_search allows, or
 * logged_out_search_trafficsource and the visitor came with a traffic source (network or ref,
 * see hasTrafficSource in contract/account.ts). Used by the api and by web's loaders alike.
 */
export function visitorMaySearch(site: { logged_out_search: boolean; logged_out_search_trafficsource: boolean }, hasTrafficSource: boolean): boolean {
  return site.logged_out_search || (site.logged_out_search_trafficsource && hasTrafficSource);
}

/** web tells the api that the visitor has a traffic source (tracking kept from the entry URL) with this header set to "1". */
export const trafficSourceHeader = "X-Traffic-Source";

/** A field an HTML form left blank ("" or only spaces) counts as not given. */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const searchMinAge = 18;
export const searchMaxAge = 99;

const searchAge = z.preprocess(blankToUndefined, wholeNumber(searchMinAge, searchMaxAge).optional());

/** docs/product.md §3 search state: gender, country, countryregion, min_age, max_age; all optional. */
export const MembersQuery = z
  .object({
    page: z.preprocess(blankToUndefined, wholeNumber(1, 10_000).default(1)),
    gender: z.preprocess(blankToUndefined, z.enum(["male", "female"]).optional()),
    country: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166 alpha-2 code")
        .transform((c) => c.toUpperCase())
        .optional(),
    ),
    /** A region of `country` (as profiles.region stores it); ignored without a country. */
    region: z.preprocess(blankToUndefined, text(100, { trim: true }).optional()),
    min_age: searchAge,
    max_age: searchAge,
  })
  .superRefine((q, ctx) => {
    if (q.min_age !== undefined && q.max_age !== undefined && q.min_age > q.max_age) {
      ctx.addIssue({ code: "custom", path: ["min_age"], message: "min_age must not be greater than max_age" });
    }
  });
export type MembersQuery = z.infer<typeof MembersQuery>;

/**
 * GET /api/members.php and /api/member.php with `with_user=1` also answer `me`: what GET /api/user.php
 * would (the member and the badge counts), so a page costs web one api call instead of two.
 */
export const withUserParam = "with_user";
const Me = UserResponse.optional();

export const MembersResponse = z.object({
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  /** How many match, counted up to a bound (api/domain/members.ts searchResultsCap); numResultsCapped: more than that. */
  numResults: z.number().int(),
  numResultsCapped: z.boolean(),
  results: z.array(MemberCard),
  /** docs/product.md §3: when page 1 of a filtered search has fewer than a page of results, other members of the searched gender. */
  similar: z.array(MemberCard),
  me: Me,
});
export type MembersResponse = z.infer<typeof MembersResponse>;

export const MemberQuery = z.object({ id: queryId });

export const MemberPhoto = z.object({ filename: z.string(), thumb_filename: z.string() });

/** GET /api/member.php?id=: another member's profile as the viewer may see it. */
export const MemberProfile = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  gender: z.enum(["male", "female"]),
  city: z.string().nullable(),
  region: z.string().nullable(),
  country: z.string(),
  about_me: z.string(),
  interests: z.array(z.number().int()),
  /** The photos this viewer may see (docs/product.md §6: visitors and free members a few, premium members all; contract/photos.ts). */
  photos: z.array(MemberPhoto),
  /** All the member's active photos, shown or not: the page offers the rest to premium members. */
  photo_count: z.number().int(),
  /** A profile run by the site: the page shows the site's fictional_icon and fictional_warning. */
  fictional: z.boolean(),
  /** The choice fields the site shows (settings.visible_profile_fields) that the member filled in: field -> value code. */
  details: z.partialRecord(z.enum(profileChoiceFields), z.string()),
});
export type MemberProfile = z.infer<typeof MemberProfile>;
/** The viewer's relation to the member (null for visitors): likes either way, a match when both, and whether the viewer blocked them. */
export const MemberRelation = z.object({ liked: z.boolean(), liked_me: z.boolean(), match: z.boolean(), blocked_by_me: z.boolean() });
export type MemberRelation = z.infer<typeof MemberRelation>;

/**
 * GET /api/member.php?id=: 404 not_found for unknown, own and other sites' members;
 * 403 blocked_by_member {name} when the member blocked the viewer. Opening the page clears the like_new flag
 * of the member's like of the viewer.
 */
export const MemberResponse = z.object({ profile: MemberProfile, relation: MemberRelation.nullable(), me: Me });

/**
 * GET /api/teasers.php: what member landings and landers show visitors without an
 * account: a chosen member (`id`, the funnel's member) and/or others with a photo, newest first.
 */
export const TeasersQuery = z.object({
  id: z.preprocess(blankToUndefined, queryId.optional()),
  count: z.preprocess(blankToUndefined, wholeNumber(0, 24).default(12)),
  gender: z.preprocess(blankToUndefined, z.enum(["male", "female"]).optional()),
});
export type TeasersQuery = z.infer<typeof TeasersQuery>;

export const Teaser = MemberCard.extend({ region: z.string().nullable() });
export type Teaser = z.infer<typeof Teaser>;

/** `member`: the one asked for by id (null without id); `members`: up to `count` others with a photo. */
export const TeasersResponse = z.object({ member: Teaser.nullable(), members: z.array(Teaser) });
export type TeasersResponse = z.infer<typeof TeasersResponse>;
