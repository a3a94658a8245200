import { z } from "zod";
import { EventDate, FormKey, id } from "./input";

/*
 * The catalogue in the console (docs/staff.md), admins only (`catalogue.manage`): discount codes and
 * invitations. What is made here is usable at once (the member endpoints read the tables on each request).
 *
 *   GET  /api/staff/discount-codes.php  -> DiscountCodesResponse
 *   POST /api/staff/discount-codes.php  DiscountCodeAction -> CatalogueOutcome | validation_failed 400 (a code in use) | not_found 404
 *   GET  /api/staff/invitations.php     -> InvitationsResponse
 *   POST /api/staff/invitations.php     InvitationAction -> InvitationOutcome (create: the signup link) | not_found 404
 */

/** A discount code as typed by staff: 3 to 40 letters, digits, - or _, stored upper case. */
export const StaffDiscountCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,40}$/, "3 to 40 letters, digits, - or _")
  .transform((code) => code.toUpperCase());

export const DiscountCodeRow = z.object({
  id: z.number(),
  site: z.object({ id: z.number(), name: z.string() }).nullable(),
  code: z.string(),
  percentage: z.number(),
  validity: z.enum(["once_per_user", "uses"]),
  max_uses: z.number().nullable(),
  used_count: z.number(),
  /** Paid payments that used it. */
  uses: z.number(),
  minimum_order_value: z.number(),
  currency: z.string().nullable(),
  country: z.string().nullable(),
  expires_at: z.string().nullable(),
  active: z.boolean(),
});
export type DiscountCodeRow = z.infer<typeof DiscountCodeRow>;
export const DiscountCodesResponse = z.object({ codes: z.array(DiscountCodeRow), sites: z.array(z.object({ id: z.number(), name: z.string() })) });
export type DiscountCodesResponse = z.infer<typeof DiscountCodesResponse>;

export const DiscountCodeAction = z.discriminatedUnion("action", [
  z
    .object({
      action: z.literal("create"),
      form_key: FormKey,
      /** null: every site. */
      site_id: id.nullable(),
      code: StaffDiscountCode,
      percentage: z.number().int().min(1).max(90),
      validity: z.enum(["once_per_user", "uses"]),
      max_uses: z.number().int().min(1).max(1_000_000).nullable(),
      minimum_order_value: z.number().int().min(0).max(10_000_000),
      currency: z.string().regex(/^[A-Z]{3}$/, "a currency code such as EUR").nullable(),
      country: z.string().regex(/^[A-Z]{2}$/, "a country code such as NL").nullable(),
      expires_at: EventDate.nullable(),
    })
    .refine((body) => (body.validity === "uses") === (body.max_uses !== null), { message: "A code with a number of uses needs that number (and only such a code)", path: ["max_uses"] }),
  /** Ends a code now (it stays listed with its uses). */
  z.object({ action: z.literal("expire"), id }),
]);
export type DiscountCodeAction = z.infer<typeof DiscountCodeAction>;

export const InvitationRow = z.object({
  id: z.number(),
  site: z.object({ id: z.number(), name: z.string() }),
  code: z.string(),
  used_by: z.number().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});
export const InvitationsResponse = z.object({ invitations: z.array(InvitationRow), sites: z.array(z.object({ id: z.number(), name: z.string(), invite_only: z.boolean() })) });
export type InvitationsResponse = z.infer<typeof InvitationsResponse>;

export const InvitationAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), site_id: id, days: z.number().int().min(1).max(365), form_key: FormKey }),
  /** Ends an unused invitation now. */
  z.object({ action: z.literal("revoke"), id }),
]);
export type InvitationAction = z.infer<typeof InvitationAction>;
/** replay: this form made an invitation already (its link was shown then, and is not shown again). */
export const InvitationOutcome = z.object({ ok: z.literal(true), link: z.string().nullable(), replay: z.boolean().optional() });
/** The answer to a catalogue write; replay: the same form was booked already and nothing was made again. */
export const CatalogueOutcome = z.object({ ok: z.literal(true), replay: z.boolean().optional() });
export type CatalogueOutcome = z.infer<typeof CatalogueOutcome>;
export type InvitationOutcome = z.infer<typeof InvitationOutcome>;
