import type { TFunction } from "i18next";
import { z } from "zod";
import { moderationReasons } from "#contract/moderation-reasons";
import { creditAdjustMax } from "#contract/staff-moderation";

/**
 * The forms of a member's staff page (app/routes/staff.members.$id.tsx), each one schema for the action and the
 * browser, as the members' own forms (app/features/account/account-forms.ts). `t` is the staff namespace; bounds
 * follow contract/staff-moderation.ts MemberActionRequest.
 */
const formKey = z.string().min(16).max(64);

function reason(t: TFunction) {
  // No reason is chosen for the moderator: an empty choice is refused with a message.
  return z.enum(moderationReasons, { error: t("members.detail.validation.reasonRequired") });
}

export function creditsSchema(t: TFunction) {
  return z.object({
    intent: z.literal("credits"),
    form_key: formKey,
    delta: z
      .number({ error: t("members.detail.validation.deltaRequired") })
      .int(t("members.detail.validation.deltaWhole"))
      .min(-creditAdjustMax, t("members.detail.validation.deltaRange", { max: creditAdjustMax }))
      .max(creditAdjustMax, t("members.detail.validation.deltaRange", { max: creditAdjustMax }))
      .refine((delta) => delta !== 0, t("members.detail.validation.deltaZero")),
    note: z.string({ error: t("members.detail.validation.noteRequired") }).trim().min(3, t("members.detail.validation.noteShort")).max(200),
  });
}

/** A refund: the whole payment, or a part typed as 4.99 (or 4,99); its reason; the form's key. */
export function refundSchema(t: TFunction) {
  return z.object({
    intent: z.literal("refund"),
    form_key: formKey,
    payment_id: z.number().int().min(1),
    amount: z
      .string({ error: t("members.detail.validation.amountRequired") })
      .trim()
      .regex(/^\d{1,7}([.,]\d{1,2})?$/, t("members.detail.validation.amountFormat")),
    reason: z.string({ error: t("members.detail.validation.refundReasonRequired") }).trim().min(3, t("members.detail.validation.refundReasonShort")).max(500),
  });
}

export function suspendSchema(t: TFunction) {
  return z.object({ intent: z.literal("suspend"), reason: reason(t), until: z.iso.date({ error: t("members.detail.validation.untilRequired") }) });
}

export function banSchema(t: TFunction) {
  return z.object({ intent: z.literal("ban"), reason: reason(t) });
}

export function eraseSchema(t: TFunction) {
  return z.object({ intent: z.literal("erase"), confirm: z.literal("ERASE", { error: t("members.detail.validation.eraseConfirm") }) });
}

/** Minor units of an amount typed as 4.99 or 4,99. */
export function minorUnitsOf(amount: string): number {
  const [whole = "0", cents = ""] = amount.replace(",", ".").split(".");
  return Number(whole) * 100 + Number(cents.padEnd(2, "0"));
}
