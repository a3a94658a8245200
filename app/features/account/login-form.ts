import type { TFunction } from "i18next";
import { z } from "zod";

/** The login form: the action parses with it, and the browser loads it with conform on the form's first focus. */
export function loginSchema(t: TFunction) {
  return z.object({
    email: z.email({ error: (issue) => (issue.input === undefined ? t("login.emailRequired") : t("login.emailInvalid")) }).max(254),
    password: z.string({ error: t("login.passwordRequired") }).max(200),
    redirectTo: z.string().optional(),
  });
}
