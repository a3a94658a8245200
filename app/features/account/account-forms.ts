import type { TFunction } from "i18next";
import { z } from "zod";
import { LinkToken } from "#contract/input";

/**
 * The account forms (password reset, password and e-mail change, deletion), each one schema for the
 * action and the browser. `t` is bound to the account namespace. Bounds follow contract/account.ts.
 */
function email(t: TFunction) {
  return z.email({ error: (issue) => (issue.input === undefined ? t("validation.emailRequired") : t("validation.emailInvalid")) }).max(254);
}

function currentPassword(t: TFunction) {
  return z.string({ error: t("validation.passwordRequired") }).max(200);
}

/** A new password with its repeat; docs/product.md §5: "The entered passwords are not the same." on the repeat field. */
function newPasswordFields(t: TFunction) {
  return {
    password: z.string({ error: t("validation.newPasswordRequired") }).min(8, t("validation.passwordTooShort")).max(200, t("validation.passwordTooLong")),
    password_repeat: z.string({ error: t("validation.repeatRequired") }).max(200),
  };
}

const repeated = (value: { password: string; password_repeat: string }) => value.password === value.password_repeat;
const notRepeated = (t: TFunction) => ({ path: ["password_repeat"], message: t("validation.passwordsDiffer") });

export function passwordResetRequestSchema(t: TFunction) {
  return z.object({ email: email(t) });
}

export function passwordResetSchema(t: TFunction) {
  return z.object({ token: z.string().max(200).optional(), ...newPasswordFields(t) }).refine(repeated, notRepeated(t));
}

export function passwordChangeSchema(t: TFunction) {
  return z
    .object({ intent: z.literal("password"), old_password: z.string({ error: t("validation.oldPasswordRequired") }).max(200), ...newPasswordFields(t) })
    .refine(repeated, notRepeated(t));
}

export function emailChangeSchema(t: TFunction) {
  return z.object({ intent: z.literal("email"), email: email(t), password: currentPassword(t) });
}

export function deleteAccountSchema(t: TFunction) {
  return z.object({ password: currentPassword(t), reason: z.string().trim().max(500, t("validation.reasonTooLong")).optional() });
}

/** A token as mailed links carry it (contract TokenRequest); anything else is an invalid link, not worth asking the api. */
export function plausibleToken(value: string | null | undefined): value is string {
  return LinkToken.safeParse(value).success;
}
