import type { Request, Response } from "express";
import { maskEmail } from "../domain/accounts/email-change";
import { mailLink, publicOrigin } from "../domain/accounts/links";
import type { Recipient } from "../domain/accounts/recipient";
import { unsubscribeKeyOf, unsubscribeUrl } from "../domain/notifications";
import type { MailKind, Mailer } from "../services/mail";

type MailDeps = { mailer: Mailer; publicUrl: string; secret: string };

/** The site, and the origin its mail links point at, for the request being handled. */
function mailContext(deps: MailDeps, _req: Request, res: Response) {
  const site = res.locals.site;
  const origin = publicOrigin(deps.publicUrl, site.domain);
  return { origin, siteId: site.id, site: { name: site.name, mailName: site.mailName, domain: site.domain } };
}

/** Every mail to a member carries the one-click unsubscribe link (RFC 8058), account mails too (ADR 011). */
function unsubscribeOf(deps: MailDeps, origin: string, siteId: number, userId: number): string {
  return unsubscribeUrl(origin, unsubscribeKeyOf(deps.secret), siteId, userId);
}

/** Mails a link for `kind` to the member (or to `to`, for a new address); a failed send is logged and does not undo anything. */
export async function mailAccountLink(deps: MailDeps, req: Request, res: Response, kind: MailKind, recipient: Recipient, token: string, to = recipient.email): Promise<void> {
  const { origin, site, siteId } = mailContext(deps, req, res);
  await deps.mailer.send(
    {
      kind,
      to,
      language: recipient.language,
      name: recipient.name,
      site,
      link: mailLink(origin, recipient.language, kind, token),
      userId: recipient.userId,
      unsubscribeUrl: unsubscribeOf(deps, origin, siteId, recipient.userId),
    },
    req.log,
  );
}

/**
 * Tells the member's current address that the account is moving to `newEmail` (masked), with a link to the
 * password reset and no token: sent when the change is asked for, while a reset still reaches this address
 * and voids the pending change. A failed send is logged and does not undo the request.
 */
export async function mailEmailChangeNotice(deps: MailDeps, req: Request, res: Response, recipient: Recipient, newEmail: string): Promise<void> {
  const { origin, site, siteId } = mailContext(deps, req, res);
  await deps.mailer.send(
    {
      kind: "email_change_notice",
      unsubscribeUrl: unsubscribeOf(deps, origin, siteId, recipient.userId),
      to: recipient.email,
      language: recipient.language,
      name: recipient.name,
      site,
      link: mailLink(origin, recipient.language, "email_change_notice"),
      newAddress: maskEmail(newEmail),
      userId: recipient.userId,
    },
    req.log,
  );
}
