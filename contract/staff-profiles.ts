import { z } from "zod";
import { BirthDate, id, queryId, text } from "./input";

/*
 * Site-run profiles in the console (docs/staff.md), admins only (`profiles.manage`): the profiles
 * operators answer as (profiles.fictional). They appear in search, the like modal and auto-like as any active profile,
 * labelled as the site's settings say.
 *
 *   GET  /api/staff/profiles.php       -> SiteRunProfilesResponse
 *   GET  /api/staff/profile.php        ?id= -> SiteRunProfile | not_found 404
 *   POST /api/staff/profile.php        SiteRunProfileAction -> SiteRunProfile | validation_failed 400 | not_found 404
 *   POST /api/staff/profile-photo.php  ?id= multipart `photo` -> SiteRunProfile (201) | unsupported_image 415 |
 *                                      file_too_large 413 | photo_limit_reached 403
 */

export const SiteRunProfile = z.object({
  id: z.number(),
  site: z.object({ id: z.number(), name: z.string() }),
  name: z.string(),
  gender: z.enum(["male", "female"]),
  date_of_birth: z.string(),
  country: z.string(),
  city: z.string().nullable(),
  about_me: z.string(),
  active: z.boolean(),
  photos: z.array(z.object({ id: z.number(), thumb_url: z.string() })),
});
export type SiteRunProfile = z.infer<typeof SiteRunProfile>;
/** GET /api/staff/profiles.php?before=: the site-run profiles older (by id) than `before`, 100 a page, the newest first. */
export const SiteRunProfilesQuery = z.object({ before: queryId.optional() });
export const SiteRunProfilesResponse = z.object({
  profiles: z.array(SiteRunProfile),
  /** The next page's `before`, or null on the last page. */
  next_before: z.number().nullable(),
  sites: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type SiteRunProfilesResponse = z.infer<typeof SiteRunProfilesResponse>;

const fields = {
  name: text(40, { min: 2, trim: true }),
  gender: z.enum(["male", "female"]),
  date_of_birth: BirthDate,
  country: z.string().regex(/^[A-Z]{2}$/, "a country code such as NL"),
  city: text(80, { trim: true }).nullable(),
  about_me: text(2000, { multiline: true }),
};

export const SiteRunProfileAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), site_id: id, ...fields }),
  z.object({ action: z.literal("update"), id, ...fields }),
  z.object({ action: z.literal("disable"), id }),
  z.object({ action: z.literal("enable"), id }),
  z.object({ action: z.literal("delete_photo"), id, photo_id: id }),
]);
export type SiteRunProfileAction = z.infer<typeof SiteRunProfileAction>;
