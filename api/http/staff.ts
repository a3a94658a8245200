import { Router, type NextFunction, type Request, type Response } from "express";
import { parse as parseCookie, serialize } from "cookie";
import { AuditQuery, IdQuery, StaffLoginRequest, auditPageSize, type AuditResponse, type DashboardResponse, type StaffResponse } from "#contract/staff";
import type { Db } from "../db/client";
import { listAudit, recordAudit } from "../domain/staff/audit";
import { dashboardFigures, jobTrouble } from "../domain/staff/dashboard";
import type { EventHub } from "../events/hub";
import { attemptStaffLogin } from "../domain/staff/login";
import { staffMay, type StaffAction } from "../domain/staff/permissions";
import { createStaffSession, deleteStaffSession, staffOfSession, staffSessionCookieName, staffSessionMaxAgeSeconds, type StaffMember } from "../domain/staff/sessions";
import { emailInBody, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { staffActionOf, type Endpoint } from "#contract/endpoints/endpoint";
import { on } from "./endpoint";
import { servesEverySite } from "#contract/staff-permissions";

declare module "express-serve-static-core" {
  interface Locals {
    staff?: StaffMember;
  }
}

/**
 * The staff cookie: for /staff pages only (the browser never sends it to member pages or /api), strict, 12 hours.
 * Twice: the staff pages are under Path=/staff, and the dashboard's own data URL (Remix fetches /staff.data when the
 * browser navigates to /staff) is not, so it gets the same token under Path=/staff.data.
 */
export function staffSessionCookies(req: Request, token: string, maxAge: number): string[] {
  return ["/staff", "/staff.data"].map((path) => serialize(staffSessionCookieName, token, { httpOnly: true, sameSite: "strict", secure: req.secure, path, maxAge }));
}

export { IdQuery };

const json = (res: Response) => res.set("Cache-Control", "private, no-store");


function staffJson(staff: StaffMember): StaffResponse["staff"] {
  return { id: staff.id, email: staff.email, name: staff.name, role: staff.role, site_ids: staff.siteIds };
}

/** What a file of staff endpoints gets: the router, the gate-keeping `route` (registers the endpoint with its action) and the staff of a gated request. */
export type StaffRouteKit = {
  router: Router;
  route: (endpoint: Endpoint, handler: (req: Request, res: Response) => Promise<void>) => void;
  staffOf: (res: Response) => StaffMember;
};

export function staffRoutes(deps: { db: Db; secret: string; limit: ClientLimiter; hub: EventHub; more?: ((kit: StaffRouteKit) => void)[] }): Router {
  const { db, secret, limit, hub } = deps;
  const router = Router();

  /**
   * The one gate of every staff endpoint: a live staff session (authentication_required), and a role allowed the
   * endpoint's action (forbidden). Endpoints that act on a site check it with staffMay(staff, action, siteId).
   */
  function staffOnly(action: StaffAction) {
    return handle(async (req: Request, res: Response, next: NextFunction) => {
      const token = parseCookie(req.headers.cookie ?? "")[staffSessionCookieName];
      const staff = token ? await staffOfSession(db, token, secret) : null;
      if (!staff) return sendError(res, "authentication_required");
      if (!staffMay(staff, action)) return sendError(res, "forbidden");
      res.locals.staff = staff;
      next();
    });
  }
  /** A staff endpoint of the table, behind the gate of the action its entry names (contract/endpoints/staff.ts). */
  function staffRoute(endpoint: Endpoint, handler: (req: Request, res: Response) => Promise<void>): void {
    const action = staffActionOf(endpoint);
    if (!action) throw new Error(`${endpoint.method} ${endpoint.path} names no staff action in the endpoint table`);
    on(router, endpoint, staffOnly(action), handle(handler));
  }
  const staffOf = (res: Response): StaffMember => {
    if (!res.locals.staff) throw new Error("staffOnly must run first");
    return res.locals.staff;
  };
  const kit: StaffRouteKit = { router, route: staffRoute, staffOf };

  on(router, endpoints.staffLogin,
    limit("staff_login", emailInBody),
    handle(async (req, res) => {
      const body = parseInput(res, StaffLoginRequest, req.body);
      if (!body) return;
      const outcome = await attemptStaffLogin(db, secret, body, res.locals.clientIp);
      if (outcome.kind === "blocked") return sendError(res, "login_blocked", { params: { minutes: outcome.minutes } });
      if (outcome.kind === "failed") return sendError(res, "login_failed");
      const token = await createStaffSession(db, outcome.staffUserId, secret);
      const staff = await staffOfSession(db, token, secret);
      if (!staff) return sendError(res, "login_failed");
      // A login that worked does not use up the address's limit: an office behind one address logs in all day.
      await res.locals.forgiveLimit?.();
      const recovery = outcome.recoveryCodesLeft !== null;
      await recordAudit(db, staff, res.locals.clientIp, { action: recovery ? "staff.login_recovery_code" : "staff.login", targetType: "staff", targetId: staff.id });
      res.setHeader("Set-Cookie", staffSessionCookies(req, token, staffSessionMaxAgeSeconds));
      json(res).json({ staff: staffJson(staff), recovery_codes_left: outcome.recoveryCodesLeft } satisfies StaffResponse);
    }),
  );

  on(router, endpoints.staffLogout,
    handle(async (req, res) => {
      const token = parseCookie(req.headers.cookie ?? "")[staffSessionCookieName];
      const staff = token ? await staffOfSession(db, token, secret) : null;
      if (token) await deleteStaffSession(db, token, secret);
      if (staff) await recordAudit(db, staff, res.locals.clientIp, { action: "staff.logout", targetType: "staff", targetId: staff.id });
      res.setHeader("Set-Cookie", staffSessionCookies(req, "", 0));
      json(res).json({ ok: true });
    }),
  );

  staffRoute(endpoints.staffMe, async (_req, res) => {
    json(res).json({ staff: staffJson(staffOf(res)) } satisfies StaffResponse);
  });

  staffRoute(endpoints.staffDashboard, async (_req, res) => {
    const staff = staffOf(res);
    const everySite = servesEverySite(staff.role);
    const [figures, jobs] = await Promise.all([dashboardFigures(db, everySite ? null : staff.siteIds), everySite ? jobTrouble(db) : null]);
    json(res).json({
      sites: figures.map((site) => ({
        id: site.id,
        domain: site.domain,
        name: site.name,
        signups_today: site.signupsToday,
        paying_members: site.payingMembers,
        revenue_today: site.revenueToday,
        messages_today: site.messagesToday,
        cam_clicks_today: site.camClicksToday,
        photo_queue: site.photoQueue,
        report_queue: site.reportQueue,
      })),
      open_streams: hub.openStreamCount(),
      jobs: jobs ? { push_retrying: jobs.pushRetrying, exports_failed_today: jobs.exportsFailedToday } : null,
    } satisfies DashboardResponse);
  });

  staffRoute(endpoints.staffAudit, async (req, res) => {
      const query = parseInput(res, AuditQuery, req.query);
      if (!query) return;
      const rows = await listAudit(db, {
        staffUserId: query.staff_id,
        action: query.action,
        targetType: query.target_type,
        targetId: query.target_id,
        from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
        to: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000) : undefined,
        before: query.before,
        limit: auditPageSize + 1,
      });
      const page = rows.slice(0, auditPageSize);
      const answer: AuditResponse = {
        entries: page.map((row) => ({
          id: row.id,
          staff_id: row.staffUserId,
          staff_email: row.staffEmail,
          role: row.role,
          action: row.action,
          target_type: row.targetType,
          target_id: row.targetId,
          site_id: row.siteId,
          changes: row.changes,
          client_ip: row.clientIp,
          at: row.at.toISOString(),
        })),
        next_before: rows.length > auditPageSize ? (page[page.length - 1]?.id ?? null) : null,
      };
      json(res).json(answer);
  });

  for (const register of deps.more ?? []) register(kit);

  return router;
}
