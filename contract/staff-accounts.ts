import { z } from "zod";
import { Email, id, text } from "./input";
import { StaffRole } from "./staff";

/*
 * Staff accounts in the console (admins, `staff.manage`; docs/staff.md). The set-up link of a new account, or a new
 * link for an existing one, is answered once: the admin passes it on (only its HMAC is kept).
 *
 *   GET  /api/staff/accounts.php  -> StaffAccountsResponse
 *   POST /api/staff/accounts.php  StaffAccountAction -> StaffAccountOutcome (add, link: with the set-up link) |
 *                                 validation_failed 400 (an address in use, an unknown site, disabling oneself) |
 *                                 not_found 404
 */

export const StaffAccount = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  role: StaffRole,
  site_ids: z.array(z.number()),
  disabled: z.boolean(),
  /** Whether the password and the second factor are set (the set-up link was used). */
  set_up: z.boolean(),
  created_at: z.string(),
});
export type StaffAccount = z.infer<typeof StaffAccount>;

export const StaffAccountsResponse = z.object({ accounts: z.array(StaffAccount), sites: z.array(z.object({ id: z.number(), name: z.string() })) });
export type StaffAccountsResponse = z.infer<typeof StaffAccountsResponse>;

export const StaffAccountAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("add"), email: Email, name: text(80, { min: 1 }), role: StaffRole, site_ids: z.array(id).max(100) }),
  z.object({ action: z.literal("link"), id }),
  z.object({ action: z.literal("disable"), id }),
  z.object({ action: z.literal("enable"), id }),
]);
export type StaffAccountAction = z.infer<typeof StaffAccountAction>;

export const StaffAccountOutcome = z.object({ ok: z.literal(true), link: z.string().nullable(), expires_at: z.string().nullable() });
export type StaffAccountOutcome = z.infer<typeof StaffAccountOutcome>;
