import { randomBytes } from "node:crypto";
import { Router } from "express";
import type { Db } from "../db/client";
import { complaints } from "../db/schema";
import { ComplaintRequest } from "#contract/complaints";
import { queueComplaint } from "../domain/staff/reports";
import type { Mailer } from "../services/mail";
import type { ClientLimiter } from "./limits";
import { handle, parseInput } from "./respond";

/** "C-7K2M9QXD": short enough to read out on the phone, no 0/O or 1/I to mix up. */
function newReference(): string {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  return `C-${Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length]).join("")}`;
}

/** Complaints (contract/complaints.ts): stored, mailed to the site's support address, answered with the reference. */
export function complaintRoutes(deps: { db: Db; mailer: Mailer; limit: ClientLimiter }): Router {
  const router = Router();
  router.post(
    "/api/complaints.php",
    deps.limit("complaint"),
    handle(async (req, res) => {
      const body = parseInput(res, ComplaintRequest, req.body);
      if (!body) return;
      const site = res.locals.site;
      const member = res.locals.member ?? null;
      // Stored with its place in the staff's reports queue (/staff/reports), in one transaction.
      const row = await deps.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(complaints)
          .values({ siteId: site.id, userId: member?.userId ?? null, reference: newReference(), name: body.name, email: body.email, contentUrl: body.content_url, reason: body.reason, message: body.message })
          .returning();
        if (!inserted) throw new Error("complaint insert returned nothing");
        await queueComplaint(tx, inserted);
        return inserted;
      });
      // Stored first: a mail that fails is logged, and support still finds the complaint by its reference.
      await deps.mailer.send(
        {
          kind: "complaint",
          to: site.supportEmail,
          language: "en",
          name: site.name,
          site: { name: site.name, mailName: site.mailName, domain: site.domain },
          link: body.content_url,
          reference: row.reference,
          details: [`Reason: ${body.reason}`, `From: ${body.name} <${body.email}>${member ? ` (member ${member.userId})` : ""}`, `Content: ${body.content_url}`, "", body.message].join("\n"),
          replyTo: body.email,
          // To the site's own support address, not to a member: nothing to unsubscribe from.
          unsubscribeUrl: null,
          userId: member?.userId ?? 0,
        },
        req.log,
      );
      res.set("Cache-Control", "no-store").status(201).json({ reference: row.reference });
    }),
  );
  return router;
}
