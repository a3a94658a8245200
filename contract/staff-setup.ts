import { z } from "zod";
import { CurrentPassword, LinkToken, text } from "./input";

/*
 * Setting up a staff account and changing a staff password (docs/staff.md). `npm run staff -- add` (or
 * `-- link`, scripts/staff.ts) makes a single-use set-up link, /staff/setup/<token>, valid 72 hours; the token is the
 * credential of the two setup endpoints (no staff session needed), which count against the staff login's client
 * limits (staff_login in api/http/limits.ts).
 *
 *   GET  /api/staff/setup.php     StaffSetupQuery -> StaffSetupResponse: the account and the TOTP secret to enrol (the
 *                                 same secret on every load of one link) | link_invalid 400 (unknown, used or expired
 *                                 link, or a disabled account) | too_many_requests 429
 *   POST /api/staff/setup.php     StaffSetupRequest -> StaffSetupDone: the password and the second factor set, the link
 *                                 used up, the ten recovery codes (shown once) | validation_failed 400 (fields.code: not
 *                                 the authenticator's current code; the link stays usable) | link_invalid 400 |
 *                                 too_many_requests 429
 *   POST /api/staff/password.php  (staff session) StaffPasswordChange -> OkResponse + a new rdv_staff cookie: every
 *                                 other session of the account ended | old_password_wrong 400 | validation_failed 400
 *                                 (fields.password: the same as the current one) | authentication_required 403 |
 *                                 too_many_requests 429
 */

/** A staff password: 10 to 200 characters a person can type (members' need 8, contract/input.ts). */
export const staffPasswordMinLength = 10;
export const StaffPassword = text(200, { min: staffPasswordMinLength });

/** The 6-digit code of an authenticator app. */
export const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "must be the 6-digit code of the authenticator app");

export const StaffSetupQuery = z.object({ token: LinkToken });
export type StaffSetupQuery = z.infer<typeof StaffSetupQuery>;

export const StaffSetupResponse = z.object({
  email: z.string(),
  name: z.string(),
  /** Base32, for typing into an authenticator app by hand. */
  totp_secret: z.string(),
  /** otpauth://totp/... as the enrolment QR code carries it. */
  otpauth_uri: z.string(),
});
export type StaffSetupResponse = z.infer<typeof StaffSetupResponse>;

export const StaffSetupRequest = z.object({
  token: LinkToken,
  password: StaffPassword,
  /** The authenticator's current code for the secret of StaffSetupResponse: proof that it was enrolled. */
  code: TotpCode,
});
export type StaffSetupRequest = z.infer<typeof StaffSetupRequest>;

export const StaffSetupDone = z.object({
  /** Ten codes "xxxxx-xxxxx", each good for one login instead of a TOTP code; only their HMACs are kept. */
  recovery_codes: z.array(z.string()),
});
export type StaffSetupDone = z.infer<typeof StaffSetupDone>;

export const StaffPasswordChange = z.object({ current_password: CurrentPassword, password: StaffPassword });
export type StaffPasswordChange = z.infer<typeof StaffPasswordChange>;
