/* The choices of a site's list settings, as plain data (no zod): the staff console's settings form imports them. */
import { optionalProfileFields } from "./profile-choices";

/** The profile fields a site may show (city and age are always part of a profile; listing them keeps older rows valid). */
export const siteProfileFields = ["city", "age", ...optionalProfileFields] as const;
/** The search form's fields a site may offer (docs/product.md §3 Search state). */
export const siteSearchFields = ["gender", "country", "countryregion", "min_age", "max_age"] as const;
/** docs/product.md §3 niche: 1 to 7. */
export const siteNiches = [1, 2, 3, 4, 5, 6, 7] as const;
