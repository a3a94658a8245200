import type { Locale } from "#contract/locales";
import type { MailKind } from "../../services/mail";
import { normaliseDomain } from "../sites";

/** The web page each mailed link opens (spec 2 routes). */
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
};

/** A link into web, with the member's locale as path prefix except for English (spec 1); the token, if the mail has one. */
export function mailLink(origin: string, language: Locale, kind: MailKind, token?: string): string {
  const prefix = language === "en" ? "" : `/${language}`;
  return `${origin}${prefix}${linkPaths[kind]}${token === undefined ? "" : `?token=${encodeURIComponent(token)}`}`;
}

/**
 * The public origin of web for links: PUBLIC_URL when configured, else the forwarded (or direct) host and
 * protocol. A host that is not the site's own domain is not trusted with a link carrying a token
 * (a forged Host header must not send a victim's reset link elsewhere): the site's domain is used then.
 */
export function publicOrigin(options: { publicUrl?: string; protocol: string; forwardedHost?: string; host?: string; siteDomain: string }): string {
  if (options.publicUrl) return options.publicUrl;
  const protocol = options.protocol === "https" ? "https" : "http";
  const host = (options.forwardedHost ?? options.host ?? "").split(",")[0]?.trim() ?? "";
  const valid = /^[\w.-]+(:\d+)?$/.test(host);
  if (valid && normaliseDomain(host) === normaliseDomain(options.siteDomain)) return `${protocol}://${host}`;
  // The port may stay (web on :3000 reached as 127.0.0.1:3000 in development); the host may not.
  const port = valid ? (/:\d+$/.exec(host)?.[0] ?? "") : "";
  return `${protocol}://${options.siteDomain}${port}`;
}
