import { randomBytes } from "node:crypto";
import type { Response } from "express";
import { and, asc, desc, eq, isNull, sql, TransactionRollbackError } from "drizzle-orm";
import {
  DiscountCodeAction,
  InvitationAction,
  type CatalogueOutcome,
  type DiscountCodesResponse,
  type InvitationOutcome,
  type InvitationsResponse,
} from "#contract/staff-catalogue";
import type { Db } from "../db/client";
import { discountCodes, discountUses, invitations, sites } from "../db/schema";
import { publicOrigin } from "../domain/accounts/links";
import { recordAudit } from "../domain/staff/audit";
import { takeFormKey } from "../domain/staff/form-keys";
import type { StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";

const json = (res: Response) => res.set("Cache-Control", "private, no-store");

/** An invitation code: 12 letters and digits without look-alikes, easy to read out. */
function newInvitationCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(randomBytes(12), (byte) => alphabet[byte % alphabet.length]).join("");
}

/**
 * The catalogue, part 1 (docs/staff.md): discount codes and invitations in the console (admins). Codes and invitations
 * made here are usable at once: the member endpoints read these tables on every request.
 */
export function staffCatalogueRoutes(deps: { db: Db; publicUrl: string }) {
  const { db } = deps;
  const siteList = () => db.select({ id: sites.id, name: sites.name, signups: sites.signups, domain: sites.domain }).from(sites).orderBy(asc(sites.id));
  return ({ route, staffOf }: StaffRouteKit) => {
    route(endpoints.discountCodes, async (_req, res) => {
      const [rows, siteRows] = await Promise.all([
        db
          .select({ code: discountCodes, siteName: sites.name, uses: sql<number>`(select count(*)::int from ${discountUses} where ${discountUses.discountCodeId} = ${discountCodes.id} and ${discountUses.status} = 'used')` })
          .from(discountCodes)
          .leftJoin(sites, eq(sites.id, discountCodes.siteId))
          .orderBy(desc(discountCodes.id)),
        siteList(),
      ]);
      json(res).json({
        codes: rows.map(({ code, siteName, uses }) => ({
          id: code.id,
          site: code.siteId !== null && siteName !== null ? { id: code.siteId, name: siteName } : null,
          code: code.code,
          percentage: code.percentage,
          validity: code.validity,
          max_uses: code.maxUses,
          used_count: code.usedCount,
          uses: Number(uses),
          minimum_order_value: code.minimumOrderValue,
          currency: code.currency,
          country: code.country,
          expires_at: code.expiresAt?.toISOString() ?? null,
          active: code.active && (code.expiresAt === null || code.expiresAt > new Date()),
        })),
        sites: siteRows.map((site) => ({ id: site.id, name: site.name })),
      } satisfies DiscountCodesResponse);
    });

    route(endpoints.changeDiscountCode, async (req, res) => {
      const body = parseInput(res, DiscountCodeAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const ip = res.locals.clientIp ?? null;
      if (body.action === "expire") {
        const done = await db.transaction(async (tx) => {
          const [row] = await tx.update(discountCodes).set({ active: false, expiresAt: new Date() }).where(eq(discountCodes.id, body.id)).returning({ code: discountCodes.code, siteId: discountCodes.siteId });
          if (!row) return false;
          await recordAudit(tx, staff, ip, { action: "discount_code.expire", targetType: "discount_code", targetId: body.id, siteId: row.siteId, changes: { active: { before: true, after: false } } });
          return true;
        });
        if (!done) return sendError(res, "not_found");
        return void json(res).json({ ok: true });
      }
      if (body.site_id !== null && !(await siteList()).some((site) => site.id === body.site_id)) return sendError(res, "validation_failed", { fields: { site_id: ["No site has this id."] } });
      // One code per site, and a code for every site clashes with any site's own.
      const [clash] = await db
        .select({ id: discountCodes.id })
        .from(discountCodes)
        .where(and(eq(discountCodes.code, body.code), body.site_id === null ? undefined : sql`(${discountCodes.siteId} = ${body.site_id} or ${discountCodes.siteId} is null)`))
        .limit(1);
      const made = await db.transaction(async (tx) => {
        // Once per form: the same form sent again makes nothing and says so (before the clash, which it would be).
        if (!(await takeFormKey(tx, staff, body.form_key))) return "replay" as const;
        if (clash) return tx.rollback();
        const [row] = await tx
          .insert(discountCodes)
          .values({
            siteId: body.site_id,
            code: body.code,
            percentage: body.percentage,
            validity: body.validity,
            maxUses: body.max_uses,
            minimumOrderValue: body.minimum_order_value,
            currency: body.currency,
            country: body.country,
            expiresAt: body.expires_at ? new Date(`${body.expires_at}T23:59:59.999Z`) : null,
          })
          .returning({ id: discountCodes.id });
        await recordAudit(tx, staff, ip, {
          action: "discount_code.create",
          targetType: "discount_code",
          targetId: row?.id ?? null,
          siteId: body.site_id,
          changes: { code: { before: null, after: body.code }, percentage: { before: null, after: body.percentage }, validity: { before: null, after: body.validity } },
        });
        return "made" as const;
      }).catch((error: unknown) => {
        if (error instanceof TransactionRollbackError) return "clash" as const;
        throw error;
      });
      if (made === "clash") return sendError(res, "validation_failed", { fields: { code: ["This code exists already."] } });
      if (made === "replay") return void json(res).json({ ok: true, replay: true } satisfies CatalogueOutcome);
      json(res).status(201).json({ ok: true } satisfies CatalogueOutcome);
    });

    route(endpoints.invitations, async (_req, res) => {
      const [rows, siteRows] = await Promise.all([
        db.select({ invitation: invitations, siteName: sites.name }).from(invitations).innerJoin(sites, eq(sites.id, invitations.siteId)).orderBy(desc(invitations.id)).limit(200),
        siteList(),
      ]);
      json(res).json({
        invitations: rows.map(({ invitation, siteName }) => ({
          id: invitation.id,
          site: { id: invitation.siteId, name: siteName },
          code: invitation.code,
          used_by: invitation.usedByUserId,
          expires_at: invitation.expiresAt.toISOString(),
          created_at: invitation.createdAt.toISOString(),
        })),
        sites: siteRows.map((site) => ({ id: site.id, name: site.name, invite_only: site.signups === "other" })),
      } satisfies InvitationsResponse);
    });

    route(endpoints.changeInvitation, async (req, res) => {
      const body = parseInput(res, InvitationAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const ip = res.locals.clientIp ?? null;
      if (body.action === "revoke") {
        const done = await db.transaction(async (tx) => {
          const [row] = await tx
            .update(invitations)
            .set({ expiresAt: new Date() })
            .where(and(eq(invitations.id, body.id), isNull(invitations.usedByUserId)))
            .returning({ siteId: invitations.siteId });
          if (!row) return false;
          await recordAudit(tx, staff, ip, { action: "invitation.revoke", targetType: "invitation", targetId: body.id, siteId: row.siteId });
          return true;
        });
        if (!done) return sendError(res, "validation_failed", { fields: { id: ["This invitation was used already, or does not exist."] } });
        return void json(res).json({ ok: true, link: null } satisfies InvitationOutcome);
      }
      const site = (await siteList()).find((s) => s.id === body.site_id);
      if (!site) return sendError(res, "validation_failed", { fields: { site_id: ["No site has this id."] } });
      const code = newInvitationCode();
      const made = await db.transaction(async (tx) => {
        if (!(await takeFormKey(tx, staff, body.form_key))) return false;
        const [row] = await tx
          .insert(invitations)
          .values({ siteId: site.id, code, expiresAt: new Date(Date.now() + body.days * 86_400_000) })
          .returning({ id: invitations.id });
        await recordAudit(tx, staff, ip, { action: "invitation.create", targetType: "invitation", targetId: row?.id ?? null, siteId: site.id, changes: { days: { before: null, after: body.days } } });
        return true;
      });
      // The same form again: its invitation exists, and its link was shown once.
      if (!made) return void json(res).json({ ok: true, link: null, replay: true } satisfies InvitationOutcome);
      const link = `${publicOrigin(deps.publicUrl, site.domain)}/signup?invitation=${code}`;
      json(res).status(201).json({ ok: true, link } satisfies InvitationOutcome);
    });
  };
}
