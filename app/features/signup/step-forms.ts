import type { TFunction } from "i18next";
import { z } from "zod";
import { queryId } from "#contract/input";
import { genders, sexualities } from "~/features/account/profile-fields";

/** Step 3, personal info, and step 4, about me: every field optional, the step itself skippable. */
export function personalSchema(t: TFunction, countries: readonly string[]) {
  return z.object({
    gender: z.enum(genders, { error: t("steps.genderRequired") }),
    sexuality: z.enum(sexualities, { error: t("steps.sexualityRequired") }),
    country: z.string({ error: t("steps.countryRequired") }).refine((c) => countries.includes(c), t("steps.countryRequired")),
    region: z.string().max(100).optional(),
    city: z.string().trim().max(100, t("steps.cityTooLong")).optional(),
  });
}

export function aboutSchema(t: TFunction) {
  return z.object({
    about_me: z.string().trim().max(2000, t("steps.aboutTooLong")).optional(),
    interests: z.array(queryId).max(50).optional(),
  });
}

export function stepSchema(step: 3 | 4, t: TFunction, countries: readonly string[]) {
  return step === 3 ? personalSchema(t, countries) : aboutSchema(t);
}
