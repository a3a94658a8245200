import { z } from "zod";

/*
 * Own profile: the choices of the optional profile fields and GET /api/geocode.php.
 *
 *   PUT /api/profile.php   (member) ProfileUpdate (contract/account.ts) -> UserResponse | validation_failed 400
 *                          with field codes: country_not_offered, region_not_in_country, unknown_interest,
 *                          invalid_choice, name_is_email, name_starts_with_at, invalid_date_of_birth
 *   GET /api/geocode.php   GeocodeQuery -> GeocodeResponse | validation_failed 400 (lat/lon not numbers or out of range)
 */

import { profileChoiceFields, profileChoices, type ProfileChoiceField } from "./profile-choices";

export { profileChoiceFields, profileChoices, type ProfileChoiceField };

/** A choice field's schema: one of its values; the error is the code the web translates. */
export function profileChoice<F extends ProfileChoiceField>(field: F) {
  return z.enum(profileChoices[field], { error: "invalid_choice" });
}

export { optionalProfileFields, type OptionalProfileField } from "./profile-choices";

/** A coordinate as a query string gives it: a plain decimal number (no "", no "1e3", no list). */
function coordinate(min: number, max: number) {
  return z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d+)?$/, "must be a decimal number")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

export const GeocodeQuery = z.object({ lat: coordinate(-90, 90), lon: coordinate(-180, 180) });

/** country: ISO 3166 alpha-2; region: a code of GET /api/regions.php for that country, or null; city: a place name. */
export const GeocodeResult = z.object({ country: z.string().regex(/^[A-Z]{2}$/), region: z.string().nullable(), city: z.string().nullable() });
export type GeocodeResult = z.infer<typeof GeocodeResult>;

/** docs/product.md §7: "On failure the result is set to false" (nothing found near the coordinates). */
export const GeocodeResponse = z.object({ result: z.union([GeocodeResult, z.literal(false)]) });
export type GeocodeResponse = z.infer<typeof GeocodeResponse>;
