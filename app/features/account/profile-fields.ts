import type { TFunction } from "i18next";
import type { ProfileUpdate } from "#contract/account";
import { optionalProfileFields, profileChoiceFields, profileChoices, sexualities, type OptionalProfileField, type ProfileChoiceField } from "#contract/profile-choices";
import type { Settings } from "#contract/settings";
import type { Gender } from "#contract/user";
import type { z } from "zod";
import type { ProfileFormValues } from "./profile-form";

/** The profile's choices as the signup steps and /profile offer them (docs/product.md §3 Profile), without zod. */
export const genders = ["female", "male"] as const satisfies readonly z.infer<typeof Gender>[];
export { profileChoiceFields, profileChoices, sexualities, type ProfileChoiceField };

/** The optional fields the site shows (settings.visible_profile_fields), in the order of the form. */
export function visibleOptionalFields(settings: Pick<Settings, "visible_profile_fields">): OptionalProfileField[] {
  return optionalProfileFields.filter((field) => settings.visible_profile_fields.includes(field));
}

/**
 * The PUT /api/profile.php body of a submitted form. A blank field clears its value; the optional fields
 * the site hides are not in the form, so they are left as they are.
 */
export function profileUpdateOf(values: ProfileFormValues, visible: OptionalProfileField[]): ProfileUpdate {
  const update: ProfileUpdate = {
    name: values.name,
    date_of_birth: values.date_of_birth,
    gender: values.gender,
    sexuality: values.sexuality,
    country: values.country,
    region: values.region || null,
    city: values.city || null,
    about_me: values.about_me ?? "",
  };
  if (visible.includes("interests")) update.interests = values.interests ?? [];
  for (const field of profileChoiceFields) {
    if (visible.includes(field)) Object.assign(update, { [field]: values[field] ?? null });
  }
  return update;
}

/** The member-facing text of a field code of PUT /api/profile.php (contract/profile.ts); `t` bound to profile. */
export function apiFieldMessage(t: TFunction, code: string): string {
  switch (code) {
    case "name_is_email":
      return t("signup.nameIsEmail", { ns: "common" });
    case "name_starts_with_at":
      return t("signup.nameStartsWithAt", { ns: "common" });
    case "invalid_date_of_birth":
      return t("errors.invalid_date_of_birth", { ns: "common" });
    case "country_not_offered":
      return t("steps.countryRequired", { ns: "common" });
    case "region_not_in_country":
      return t("validation.regionNotInCountry");
    case "unknown_interest":
      return t("validation.unknownInterest");
    case "invalid_choice":
      return t("validation.invalidChoice");
    default:
      return t("validation.invalid");
  }
}

/** Translated field errors of an api validation_failed answer. */
export function apiFieldErrors(t: TFunction, fields: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fields).map(([field, codes]) => [field, codes.map((code) => apiFieldMessage(t, code))]));
}
