import { z } from "zod";
import { CurrentPassword, Email, id, LinkToken, Password, text } from "./input";
import { profileChoice } from "./profile";
import { Gender, Sexuality } from "./user";

export { Email, Password };

/*
 * Account endpoints. All answer ApiError (contract/errors.ts) on failure.
 *
 *   POST /api/signup.php            SignupRequest -> 201 UserResponse, Set-Cookie session (status not_confirmed,
 *                                   profile disabled); sends the activation mail; signup_credits into the ledger.
 *                                   signups_closed 403 | invitation_invalid 400 | invalid_date_of_birth 400 |
 *                                   account_exists 409 | account_pending_deletion 409 | validation_failed 400
 *   GET  /api/signup-matches.php    (member) MembersResponse: members that fit the new profile
 *   POST /api/activation-mail.php   (member) OkResponse: sends the activation mail again | too_many_requests 429
 *   POST /api/activate.php          TokenRequest -> OkResponse | link_invalid 400
 *   PUT  /api/profile.php           (member) ProfileUpdate -> UserResponse
 *   POST /api/password-reset.php    PasswordResetRequest -> OkResponse | email_not_found 404 | too_many_reset_mails 429
 *   POST /api/password-reset-do.php PasswordResetDo -> OkResponse | link_invalid 400
 *   PUT  /api/password.php          (member) PasswordChange -> OkResponse | old_password_wrong 400
 *   POST /api/mail-change.php       (member) EmailChangeRequest -> OkResponse (link to the new address, a notice
 *                                   to the old one; earlier change and reset links die) | email_taken 409 |
 *                                   password_wrong 400 | too_many_requests 429 (over 3 a day)
 *   POST /api/mail-change-do.php    TokenRequest -> OkResponse | link_invalid 400 | email_taken 409
 *   POST /api/delete-account.php    (member) DeleteAccountRequest -> OkResponse, session cleared; mail with the
 *                                   reactivation link (14 days) | password_wrong 400
 *   POST /api/reactivate.php        TokenRequest -> UserResponse, Set-Cookie session | link_invalid 400
 *   GET  /api/dismissals.php        (member) DismissalsResponse
 *   POST /api/dismissals.php        (member) DismissRequest -> DismissalsResponse
 *   POST /api/user.php (login)      a soft-deleted account with the right password: account_pending_deletion 409
 *                                   (and a fresh reactivation mail)
 *
 * Links in mails point at web: /activate/done?token=, /reset-password/do?token=, /mail-change/do?token=,
 * /account-deleted?token= (reactivation), prefixed with the member's locale (/nl/...) except English.
 */

/** docs/product.md §3 tracking query values, kept from the entry URL and stored with the account at signup. */
export const trackingKeys = ["network", "ref", "sub1", "sub2", "sub3"] as const;
export const Tracking = z.object({
  network: text(100, { trim: true }).optional(),
  ref: text(100, { trim: true }).optional(),
  sub1: text(200, { trim: true }).optional(),
  sub2: text(200, { trim: true }).optional(),
  sub3: text(200, { trim: true }).optional(),
});
export type Tracking = z.infer<typeof Tracking>;

/**
 * The landing or lander page a visitor entered by, as the analytics name it (app/features/landers/tracking.server.ts
 * landerOfPath): "landers/tinderswipe", "members/landing2". No personal data.
 */
export const Lander = z.string().regex(/^(landers|members)\/[a-z0-9]{1,30}$/);

/**
 * POST /api/visit.php: an entry through a tracked URL (new tracking values, `entry`: counted for the attribution
 * report) or the first view of a landing or lander page (`lander`), with the tracking values the visitor holds.
 */
export const VisitRequest = z
  .object({
    tracking: Tracking,
    lander: Lander.optional(),
    entry: z.boolean().optional(),
  })
  .refine((v) => v.lander !== undefined || trackingKeys.some((k) => v.tracking[k]), "a lander or at least one tracking value");

/** A traffic source exists when the visitor arrived with a network or ref (docs/product.md §3 Settings.signups). */
export function hasTrafficSource(tracking: Tracking | null | undefined): boolean {
  return Boolean(tracking?.network || tracking?.ref);
}

/** ISO date (YYYY-MM-DD) that is a real calendar day. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value));

/** POST /api/signup.php. Name rules of docs/product.md §5 are checked by the api as well (name_is_email, name_starts_with_at). */
export const SignupRequest = z.object({
  email: Email,
  name: text(40, { trim: true, min: 2 }),
  date_of_birth: IsoDate,
  password: Password,
  gender: Gender.optional(),
  signup_message: text(1000, { trim: true, multiline: true }).optional(),
  /** A locale code; one the site does not speak becomes English. */
  language: z.string().regex(/^[A-Za-z]{2}$/).optional(),
  tracking: Tracking.optional(),
  /** The landing or lander page the visitor entered by (the analytics funnel's lander). */
  lander: Lander.optional(),
  invitation: text(64, { trim: true }).optional(),
});
export type SignupRequest = z.infer<typeof SignupRequest>;

/**
 * PUT /api/profile.php: signup steps 3 and 4 and the own profile page (/profile). Every field optional
 * (steps are skippable; only the fields given change); null clears an optional field. The api also checks
 * what the schema cannot know (contract/profile.ts lists the field codes): the site's countries, the
 * region of the country, known interests, the name rules of docs/product.md §5 against the e-mail, the minimum age.
 * There is no id: a member only ever changes their own profile.
 */
export const ProfileUpdate = z.object({
  name: text(40, { trim: true, min: 2 }).optional(),
  date_of_birth: IsoDate.optional(),
  gender: Gender.optional(),
  sexuality: Sexuality.optional(),
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  /** A code of GET /api/regions.php for the (new or current) country. Changing the country without a region clears it. */
  region: text(100).nullable().optional(),
  city: text(100, { trim: true }).nullable().optional(),
  about_me: text(2000, { multiline: true }).optional(),
  /**
   * Ids of settings.interests. A repeated id counts once: the member meant that interest, and a
   * form that sends a box twice should not cost them their whole update, so it is deduplicated, not refused.
   */
  interests: z
    .array(id)
    .max(50)
    .transform((ids) => [...new Set(ids)])
    .optional(),
  hair_color: profileChoice("hair_color").nullable().optional(),
  eye_color: profileChoice("eye_color").nullable().optional(),
  body_type: profileChoice("body_type").nullable().optional(),
  relationship_status: profileChoice("relationship_status").nullable().optional(),
  tattoos: profileChoice("tattoos").nullable().optional(),
  signup_reason: profileChoice("signup_reason").nullable().optional(),
  /** docs/product.md §4 invisible mode. */
  invisible: z.boolean().optional(),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

export const TokenRequest = z.object({ token: LinkToken });
export const PasswordResetRequest = z.object({ email: Email });
export const PasswordResetDo = z.object({ token: LinkToken, password: Password });
export const PasswordChange = z.object({ old_password: CurrentPassword, password: Password });
export const EmailChangeRequest = z.object({ email: Email, password: CurrentPassword });
export const DeleteAccountRequest = z.object({ password: CurrentPassword, reason: text(500, { multiline: true }).optional() });

export const dismissalKeys = ["hide-enrich-alert", "hide-push-notification-alert", "hide-disabled-notifications-alert", "hide-time-bonus-modal"] as const;
export const DismissalKey = z.enum(dismissalKeys);
export const DismissRequest = z.object({ key: DismissalKey });
/** GET /api/dismissals.php: key -> ISO timestamp of the dismissal. */
export const DismissalsResponse = z.object({ dismissals: z.partialRecord(DismissalKey, z.string()) });

export const OkResponse = z.object({ ok: z.literal(true) });
