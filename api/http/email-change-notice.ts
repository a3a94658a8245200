import type { Request, Response } from "express";
import { maskEmail } from "../domain/accounts/email-change";
import { mailLink, publicOrigin } from "../domain/accounts/links";
import type { Recipient } from "../domain/accounts/recipient";
import type { AccountDeps } from "./account";

/**
 * Tells the member's current address that the account is moving to `newEmail` (masked), with a link to the
 * password reset and no token: sent when the change is asked for, while a reset still reaches this address
 * and voids the pending change. A failed send is logged and does not undo the request.
 */
export async function mailEmailChangeNotice(deps: AccountDeps, req: Request, res: Response, recipient: Recipient, newEmail: string): Promise<void> {
  const site = res.locals.site;
  const origin = publicOrigin({
    publicUrl: deps.publicUrl,
    protocol: req.protocol,
    forwardedHost: req.get("x-forwarded-host"),
    host: req.get("host"),
    siteDomain: site.domain,
  });
  await deps.mailer.send(
    {
      kind: "email_change_notice",
      to: recipient.email,
      language: recipient.language,
      name: recipient.name,
      site: { name: site.name, mailName: site.mailName, domain: site.domain },
      link: mailLink(origin, recipient.language, "email_change_notice"),
      newAddress: maskEmail(newEmail),
      userId: recipient.userId,
    },
    req.log,
  );
}
