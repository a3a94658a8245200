import { z } from "zod";
import type { StaffTexts } from "./staff-texts.server";

/**
 * The set-up link's form and the staff password change (their actions parse with these; the browser loads them on
 * the form's first focus). Bounds follow contract/staff-setup.ts: a staff password has 10 to 200 characters.
 */
type NewPasswordTexts = Pick<StaffTexts["setup"], "passwordRequired" | "passwordTooShort" | "passwordTooLong" | "repeatRequired" | "passwordsDiffer">;

function newPasswordFields(texts: NewPasswordTexts) {
  return {
    password: z.string({ error: texts.passwordRequired }).min(10, texts.passwordTooShort).max(200, texts.passwordTooLong),
    password_repeat: z.string({ error: texts.repeatRequired }).max(200),
  };
}

const repeated = (value: { password: string; password_repeat: string }) => value.password === value.password_repeat;

export function staffSetupSchema(texts: StaffTexts["setup"]) {
  return z
    .object({
      ...newPasswordFields(texts),
      code: z
        .string({ error: texts.codeRequired })
        .trim()
        .regex(/^\d{6}$/, texts.codeInvalid),
    })
    .refine(repeated, { path: ["password_repeat"], message: texts.passwordsDiffer });
}

export function staffPasswordSchema(texts: StaffTexts["password"]) {
  return z
    .object({ current_password: z.string({ error: texts.currentRequired }).max(200), ...newPasswordFields(texts) })
    .refine(repeated, { path: ["password_repeat"], message: texts.passwordsDiffer })
    .refine((value) => value.password !== value.current_password, { path: ["password"], message: texts.sameAsCurrent });
}
