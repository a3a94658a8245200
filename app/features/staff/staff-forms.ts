import { z } from "zod";
import type { StaffTexts } from "./staff-texts.server";

/** The staff login form (its action parses with it; the browser loads it on the form's first focus). */
export function staffLoginSchema(texts: StaffTexts["login"]) {
  return z.object({
    email: z.email({ error: (issue) => (issue.input === undefined ? texts.emailRequired : texts.emailInvalid) }).max(254),
    password: z.string({ error: texts.passwordRequired }).max(200),
    code: z
      .string({ error: texts.codeRequired })
      .trim()
      .regex(/^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/i, texts.codeInvalid),
  });
}
