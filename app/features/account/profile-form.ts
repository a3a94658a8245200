import type { TFunction } from "i18next";
import { z } from "zod";
import { ageOn, isIsoDate } from "#contract/age";
import { queryId } from "#contract/input";
import { genders, profileChoices, sexualities, type ProfileChoiceField } from "./profile-fields";

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
