import type { TFunction } from "i18next";
import { z } from "zod";
import { ageOn, isIsoDate } from "#contract/age";
import { queryId } from "#contract/input";
import type { ProfileUpdate } from "#contract/account";
import { optionalProfileFields, profileChoiceFields, profileChoices, type OptionalProfileField, type ProfileChoiceField } from "#contract/profile";
import type { Settings } from "#contract/settings";
import { Sexuality, type Gender } from "#contract/user";

/** The profile's choices as the signup steps and /profile offer them (docs/product.md §3 Profile). */
export const genders = ["female", "male"] as const satisfies readonly z.infer<typeof Gender>[];
export const sexualities = Sexuality.options;
export { profileChoiceFields, profileChoices, type ProfileChoiceField };

/** The optional fields the site shows (settings.visible_profile_fields), in the order of the form. */
export function visibleOptionalFields(settings: Pick<Settings, "visible_profile_fields">): OptionalProfileField[] {
  return optionalProfileFields.filter((field) => settings.visible_profile_fields.includes(field));
}

export type ProfileFormOptions = {
  minAge: number;
  /** The member's e-mail address: docs/product.md §5, the name may not equal it. */
  email: string;
  countries: string[];
  today?: Date;
};

/**
 * The /profile form, one schema for the action and the browser. `t` is bound to the profile namespace;
 * texts shared with signup come from common. Bounds follow contract/account.ts ProfileUpdate; what only
 * the api knows (the regions of a country, known interests) it answers with field codes (apiFieldMessage).
 */
export function profileFormSchema(t: TFunction, options: ProfileFormOptions) {
  const today = options.today ?? new Date();
  const common = (key: string) => t(key, { ns: "common" });
  const choice = (field: ProfileChoiceField) => z.enum(profileChoices[field], { error: t("validation.invalidChoice") }).optional();
  return z.object({
    intent: z.literal("profile"),
    name: z
      .string({ error: common("signup.nameRequired") })
      .trim()
      .min(2, common("signup.nameTooShort"))
      .max(40, common("signup.nameTooLong"))
      .refine((name) => !name.startsWith("@"), common("signup.nameStartsWithAt"))
      .refine((name) => name.toLowerCase() !== options.email.toLowerCase(), common("signup.nameIsEmail")),
    date_of_birth: z
      .string({ error: common("signup.dateOfBirthRequired") })
      .refine((value) => isIsoDate(value) && ageOn(value, today) >= options.minAge && ageOn(value, today) <= 120, common("errors.invalid_date_of_birth")),
    gender: z.enum(genders, { error: common("steps.genderRequired") }),
    sexuality: z.enum(sexualities, { error: common("steps.sexualityRequired") }),
    country: z.string({ error: common("steps.countryRequired") }).refine((c) => options.countries.includes(c), common("steps.countryRequired")),
    region: z.string().max(100).optional(),
    city: z.string().trim().max(100, common("steps.cityTooLong")).optional(),
    about_me: z.string().trim().max(2000, common("steps.aboutTooLong")).optional(),
    interests: z.array(queryId).max(50, t("validation.unknownInterest")).optional(),
    hair_color: choice("hair_color"),
    eye_color: choice("eye_color"),
    body_type: choice("body_type"),
    relationship_status: choice("relationship_status"),
    tattoos: choice("tattoos"),
    signup_reason: choice("signup_reason"),
  });
}
export type ProfileFormValues = z.output<ReturnType<typeof profileFormSchema>>;

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
