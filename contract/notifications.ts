import { z } from "zod";
import { NotificationDisabledReason, UserResponse } from "./user";
import { Email } from "./input";

/*
 * Notification settings, one-click unsubscribe and mail events (ADR 011, docs/notifications.md):
 *   GET  /api/notifications.php          -> NotificationSettingsResponse (member; with_user=1 adds `me`)
 *   PUT  /api/notifications.php          NotificationSettingsRequest -> NotificationSettingsResponse (member)
 *   POST /api/notifications-resume.php   {} -> NotificationSettingsResponse: e-mails back on (clears fbl and listunsubscribe)
 *   GET  /api/unsubscribe.php            ?token= -> 303 to web's /unsubscribe page (a person clicking the link)
 *   POST /api/unsubscribe.php            ?token= (or UnsubscribeRequest) -> UnsubscribeResponse (RFC 8058 one-click; no session)
 *   POST /api/mail-events.php            MailEventsRequest -> MailEventsResponse (the mail provider; Authorization: Bearer MAIL_EVENTS_SECRET)
 */

export { notificationChannels, notificationKinds, type NotificationChannel, type NotificationKind } from "./notification-kinds";

const Switches = z.object({ email: z.boolean(), push: z.boolean() }).strict();

/** Every kind with its two switches (true: on). */
export const NotificationSettings = z
  .object({
    messages: Switches,
    likes: Switches,
    matches: Switches,
    news: Switches,
  })
  .strict();
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const NotificationSettingsRequest = z.object({ settings: NotificationSettings }).strict();
export type NotificationSettingsRequest = z.infer<typeof NotificationSettingsRequest>;

export const NotificationSettingsResponse = z.object({
  settings: NotificationSettings,
  /** Why no e-mail goes out at all (docs/product.md §3); empty: e-mail is allowed where a switch is on. */
  notifications_disabled: z.array(NotificationDisabledReason),
  me: UserResponse.optional(),
});
export type NotificationSettingsResponse = z.infer<typeof NotificationSettingsResponse>;

/** The link token of List-Unsubscribe: "<user id>.<HMAC>" (api/domain/notifications.ts). */
export const UnsubscribeToken = z.string().regex(/^[1-9][0-9]{0,9}\.[A-Za-z0-9_-]{43}$/, "token");

export const UnsubscribeRequest = z.object({ token: UnsubscribeToken }).strict();
export const UnsubscribeResponse = z.object({ unsubscribed: z.literal(true) });

export const mailEventTypes = ["bounce", "complaint"] as const;

export const MailEvent = z
  .object({
    /** bounce: the address does not take mail; complaint: the recipient marked a mail as spam (feedback loop). */
    type: z.enum(mailEventTypes),
    email: Email,
    /** Only hard bounces stop mail; a soft bounce (mailbox full, greylisting) is counted and ignored. Default hard. */
    bounce_type: z.enum(["hard", "soft"]).optional(),
    /** When the provider saw it (ISO 8601); kept for the log. */
    occurred_at: z.iso.datetime({ offset: true }).optional(),
    /** The site (domain) whose mail it was; unset: every account with this address. */
    site: z.string().max(253).regex(/^[A-Za-z0-9.-]+$/, "domain").optional(),
  })
  .strict();
export type MailEvent = z.infer<typeof MailEvent>;

export const MailEventsRequest = z.object({ events: z.array(MailEvent).min(1).max(500) }).strict();
export type MailEventsRequest = z.infer<typeof MailEventsRequest>;

/** applied: accounts whose mail was stopped (or already was); unknown: events for no account; ignored: soft bounces. */
export const MailEventsResponse = z.object({ applied: z.number().int(), unknown: z.number().int(), ignored: z.number().int() });
export type MailEventsResponse = z.infer<typeof MailEventsResponse>;
