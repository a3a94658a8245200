import type { TFunction } from "i18next";
import { z } from "zod";
import { ageOn, isIsoDate } from "#contract/age";
import { suggestEmail } from "./email-suggestion";

/**
 * The signup form (docs/product.md §3 Signup form, §5 rules), the same on the server and in the browser.
 * A mistyped e-mail is flagged with a suggestion until the visitor confirms it with keep_email.
 */
export function signupSchema(t: TFunction, options: { minAge: number; askMessage: boolean; today?: Date }) {
  const today = options.today ?? new Date();
  return z
    .object({
      email: z.email({ error: (issue) => (issue.input === undefined ? t("signup.emailRequired") : t("signup.emailInvalid")) }).max(254),
      name: z
        .string({ error: t("signup.nameRequired") })
        .trim()
        .min(2, t("signup.nameTooShort"))
        .max(40, t("signup.nameTooLong"))
        .refine((name) => !name.startsWith("@"), t("signup.nameStartsWithAt")),
      date_of_birth: z
        .string({ error: t("signup.dateOfBirthRequired") })
        .refine((value) => isIsoDate(value) && ageOn(value, today) >= options.minAge && ageOn(value, today) <= 120, t("errors.invalid_date_of_birth")),
      password: z.string({ error: t("signup.passwordRequired") }).min(8, t("signup.passwordTooShort")).max(200),
      signup_message: options.askMessage ? z.string({ error: t("signup.messageRequired") }).trim().max(1000) : z.string().trim().max(1000).optional(),
      keep_email: z.literal("1").optional(),
      invitation: z.string().trim().max(64).optional(),
    })
    .superRefine((value, ctx) => {
      if (value.name.toLowerCase() === value.email.toLowerCase()) {
        ctx.addIssue({ code: "custom", path: ["name"], message: t("signup.nameIsEmail") });
      }
      const suggestion = value.keep_email ? null : suggestEmail(value.email);
      if (suggestion) ctx.addIssue({ code: "custom", path: ["email"], message: t("signup.didYouMean", { suggestion }) });
    });
}
