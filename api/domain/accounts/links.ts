import type { Locale } from "#contract/locales";
import type { MailKind } from "../../services/mail";

/** The web page each mailed link opens (docs/product.md §2 routes). */
export const linkPaths: Record<MailKind, string> = {
  activation: "/activate/done",
  password_reset: "/reset-password/do",
  email_change: "/mail-change/do",
  email_change_notice: "/reset-password",
  reactivation: "/account-deleted",
  data_export: "/profile/export",
  complaint: "/complaints",
  // Notification mails (api/jobs/notification-mails.ts) link a conversation or a likes tab of their own.
  notify_message: "/chats",
  notify_like: "/likes/received",
  notify_match: "/likes/matches",
  // Staff decisions (docs/staff.md): the member's photos, the rules they were measured by, the complaints page.
  photo_rejected: "/profile/photos",
  moderation_statement: "/pages/terms",
  report_reply: "/complaints",
  report_outcome: "/complaints",
};

/** A link into web, with the member's locale as path prefix except for English (docs/product.md §1); the token, if the mail has one. */
export function mailLink(origin: string, language: Locale, kind: MailKind, token?: string): string {
  const prefix = language === "en" ? "" : `/${language}`;
  return `${origin}${prefix}${linkPaths[kind]}${token === undefined ? "" : `?token=${encodeURIComponent(token)}`}`;
}

/**
 * The origin of web for a site's links (mails, payment returns): the configured PUBLIC_URL template with
 * `{domain}` replaced by the site's domain (api/config.ts). Never the request's Host, X-Forwarded-Host or
 * X-Forwarded-Proto: a forged header must not choose where a mailed token goes (docs/security.md).
 */
export function publicOrigin(publicUrl: string, siteDomain: string): string {
  return publicUrl.replaceAll("{domain}", siteDomain);
}
