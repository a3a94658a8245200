import { asc, eq } from "drizzle-orm";
import { StaffAccountAction, type StaffAccountOutcome, type StaffAccountsResponse } from "#contract/staff-accounts";
import type { Db } from "../db/client";
import { sites, staffSessions, staffUsers } from "../db/schema";
import { recordAudit } from "../domain/staff/audit";
import { addStaffWithSetupLink, renewSetupLink, setupLink, setupLinkOrigin } from "../domain/staff/setup";
import type { StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { servesEverySite } from "#contract/staff-permissions";

/**
 * Staff accounts in the console (admins; docs/staff.md): list them, add one (answered with its set-up link, once),
 * make a new set-up link (a lost phone), disable and enable. Each write is an audit entry.
 */
export function staffAccountRoutes(deps: { db: Db; secret: string; publicUrl: string }) {
  const { db, secret } = deps;
  return ({ route, staffOf }: StaffRouteKit) => {
    route(endpoints.staffAccounts, async (_req, res) => {
      const [rows, siteRows] = await Promise.all([db.select().from(staffUsers).orderBy(asc(staffUsers.id)), db.select({ id: sites.id, name: sites.name }).from(sites).orderBy(asc(sites.id))]);
      const answer: StaffAccountsResponse = {
        accounts: rows.map((row) => ({
          id: row.id,
          email: row.email,
          name: row.name,
          role: row.role,
          site_ids: row.siteIds,
          disabled: row.disabled,
          set_up: row.passwordHash !== null && row.totpSecret !== null,
          created_at: row.createdAt.toISOString(),
        })),
        sites: siteRows,
      };
      res.set("Cache-Control", "private, no-store").json(answer);
    });

    route(endpoints.changeStaffAccount, async (req, res) => {
      const body = parseInput(res, StaffAccountAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const ip = res.locals.clientIp ?? null;
      const refuse = (field: string, message: string) => sendError(res, "validation_failed", { fields: { [field]: [message] } });
      const answer = (link: string | null, expiresAt: Date | null): void => {
        res.set("Cache-Control", "private, no-store").json({ ok: true, link, expires_at: expiresAt?.toISOString() ?? null } satisfies StaffAccountOutcome);
      };
      if (body.action === "add") {
        const siteIds = servesEverySite(body.role) ? [] : body.site_ids;
        const outcome = await addStaffWithSetupLink(db, secret, { email: body.email, name: body.name, role: body.role, siteIds });
        if (outcome.kind === "email_taken") return refuse("email", "A staff account with this e-mail address exists already.");
        if (outcome.kind === "unknown_sites") return refuse("site_ids", `No site has the id ${outcome.siteIds.join(", ")}.`);
        await recordAudit(db, staff, ip, {
          action: "staff.add",
          targetType: "staff",
          targetId: outcome.staffUserId,
          changes: { email: { before: null, after: body.email.toLowerCase() }, role: { before: null, after: body.role }, site_ids: { before: null, after: siteIds } },
        });
        const origin = await setupLinkOrigin(db, deps.publicUrl, { role: body.role, siteIds });
        return answer(origin ? setupLink(origin, outcome.token) : null, outcome.expiresAt);
      }
      const [target] = await db.select().from(staffUsers).where(eq(staffUsers.id, body.id)).limit(1);
      if (!target) return sendError(res, "not_found");
      if (body.action === "link") {
        const outcome = await renewSetupLink(db, secret, target.email);
        if (outcome.kind === "disabled") return refuse("id", "This account is disabled: enable it first.");
        if (outcome.kind !== "ok") return sendError(res, "not_found");
        await recordAudit(db, staff, ip, { action: "staff.new_setup_link", targetType: "staff", targetId: target.id });
        const origin = await setupLinkOrigin(db, deps.publicUrl, outcome);
        return answer(origin ? setupLink(origin, outcome.token) : null, outcome.expiresAt);
      }
      const disable = body.action === "disable";
      if (disable && target.id === staff.id) return refuse("id", "You cannot disable your own account.");
      await db.transaction(async (tx) => {
        await tx.update(staffUsers).set({ disabled: disable, ...(disable ? { sessionsValidFrom: new Date() } : {}) }).where(eq(staffUsers.id, target.id));
        if (disable) await tx.delete(staffSessions).where(eq(staffSessions.staffUserId, target.id));
        await recordAudit(tx, staff, ip, { action: disable ? "staff.disable" : "staff.enable", targetType: "staff", targetId: target.id, changes: { disabled: { before: target.disabled, after: disable } } });
      });
      answer(null, null);
    });
  };
}
