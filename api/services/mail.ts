import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import i18next, { type TFunction } from "i18next";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import { locales, type Locale } from "#contract/locales";
import { writeFileAtomically } from "./atomic-file";
import { countMail } from "../metrics";
import { projectPath } from "../project-files";

/** email_change_notice goes to the old address when a change is asked for; the others carry a one-time link. */
export type MailKind =
  | "activation"
  | "password_reset"
  | "email_change"
  | "email_change_notice"
  | "reactivation"
  | "data_export"
  | "complaint"
  | NotificationMailKind
  | StaffDecisionMailKind;

/** Staff decisions told to a member (docs/staff.md): a photo rejected, a statement of reasons, a reply to a report. */
export type StaffDecisionMailKind = "photo_rejected" | "moderation_statement" | "report_reply" | "report_outcome";

/** Notification mails (api/jobs/notification-mails.ts): sent only where the member's settings allow them. */
export type NotificationMailKind = "notify_message" | "notify_like" | "notify_match";

/** One account mail: who gets it, in which language, for which site, with which link. */
export type AccountMail = {
  kind: MailKind;
  to: string;
  language: Locale;
  name: string;
  site: { name: string; mailName: string; domain: string };
  link: string;
  /** email_change_notice: the address the account is moving to, masked (the notice never carries it whole). */
  newAddress?: string;
  /** For the log line only: the member the mail is about (never the address). */
  userId: number;
  /** complaint: the reference number, and the report as the sender wrote it (plain text, quoted below the intro). */
  reference?: string;
  details?: string;
  /** complaint: where support's reply goes (the sender). */
  replyTo?: string;
  /**
   * RFC 8058 one-click unsubscribe (List-Unsubscribe + List-Unsubscribe-Post): every mail to a member carries
   * it (api/domain/notifications.ts unsubscribeUrl); null only for mails to the site's own support address.
   */
  unsubscribeUrl: string | null;
  /** Staff decisions: the reason, a key of the mail namespace's `reasons` ("photo.nudity", "moderation.spam"), told in the intro. */
  reasonKey?: string;
  /** Notification mails: the other member's name, and the member's /notifications page (named in the footer). */
  sender?: string;
  settingsLink?: string;
};

export type Mailer = {
  /** Sends the mail; never throws: a failure is logged without the address and reported as false. */
  send: (mail: AccountMail, log?: Logger) => Promise<boolean>;
  close: () => void;
};

const localesDir = projectPath("locales");

// One i18next instance for the api's mail texts, loaded once at start (the files are small).
const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(locales.map((lng) => [lng, { mail: JSON.parse(readFileSync(path.join(localesDir, lng, "mail.json"), "utf8")) }])),
  lng: "en",
  fallbackLng: "en",
  ns: ["mail"],
  defaultNS: "mail",
  initImmediate: false,
  interpolation: { escapeValue: false },
});

export function createMailer(options: { smtpUrl?: string; mailFrom?: string; dataDir: string; logger: Logger }): Mailer {
  const { logger } = options;
  const smtp: Transporter | null = options.smtpUrl
    ? nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
    : null;
  // Without SMTP every message becomes an .eml file a developer can open.
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const mailDir = path.resolve(options.dataDir, "mail");

  return {
    async send(mail, log = logger) {
      try {
        const message = composeMail(mail, options.mailFrom);
        if (smtp) {
          await smtp.sendMail(message);
        } else {
          const info = await files.sendMail(message);
          await mkdir(mailDir, { recursive: true });
          const stamp = new Date().toISOString().replace(/:/g, "-");
          await writeFileAtomically(path.join(mailDir, `${stamp}-${mail.kind}-${randomBytes(4).toString("hex")}.eml`), info.message as Buffer);
        }
        log.info({ mail: mail.kind, userId: mail.userId, transport: smtp ? "smtp" : "file" }, "mail sent");
        countMail("sent");
        return true;
      } catch (error) {
        log.error({ mail: mail.kind, userId: mail.userId, error: withoutAddresses(error) }, "mail not sent");
        countMail("failed");
        return false;
      }
    },
    close() {
      smtp?.close();
    },
  };
}

/** Subject, plain text and HTML of an account mail in the member's language, from locales/<lng>/mail.json. */
export function composeMail(mail: AccountMail, mailFrom?: string) {
  const t: TFunction = i18n.getFixedT(mail.language, "mail");
  const values = { site: mail.site.name, name: mail.name, link: mail.link, newAddress: mail.newAddress ?? "", reference: mail.reference ?? "", sender: mail.sender ?? "", settingsLink: mail.settingsLink ?? "", reason: mail.reasonKey ? t(`reasons.${mail.reasonKey}`) : "" };
  const text = (key: string) => t(key, values);
  const subject = text(`${mail.kind}.subject`);
  const paragraphs = [text("greeting"), text(`${mail.kind}.intro`), ...(mail.details ? [mail.details] : [])];
  const footer = mail.settingsLink ? text("notificationFooter") : null;
  const plain = [...paragraphs, `${text(`${mail.kind}.action`)}:\n${mail.link}`, text(`${mail.kind}.outro`), text("signature"), ...(footer ? [footer] : [])].join("\n\n");
  const html = `<!doctype html>
<html lang="${mail.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:16px">
<h1 style="font-size:20px;color:#d63384">${escapeHtml(mail.site.name)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`).join("\n")}
<p><a href="${escapeHtml(mail.link)}" style="display:inline-block;background:#d63384;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(text(`${mail.kind}.action`))}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(text("linkHint"))}</p>
<p>${escapeHtml(text(`${mail.kind}.outro`))}</p>
<p>${escapeHtml(text("signature")).replace(/\n/g, "<br>")}</p>
${footer ? `<p style="font-size:12px;color:#777">${escapeHtml(footer)}</p>\n` : ""}</body></html>`;
  return {
    from: { name: mail.site.mailName, address: mailFrom ?? `noreply@${mail.site.domain}` },
    to: mail.to,
    subject,
    text: plain,
    html,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    headers: {
      "Auto-Submitted": "auto-generated",
      ...(mail.unsubscribeUrl ? { "List-Unsubscribe": `<${mail.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
    },
  };
}

/** An SMTP error can quote the recipient ("550 <a@b.c> rejected"): the log gets the message without addresses. */
export function withoutAddresses(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, "[address]").slice(0, 500);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** A text of locales/<lng>/mail.json in a member's language (the SMS texts live there too). */
export function mailText(language: Locale, key: string, values: Record<string, string | number>): string {
  return i18n.getFixedT(language, "mail")(key, values);
}
