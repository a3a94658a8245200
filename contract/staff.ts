import { z } from "zod";
import { auditActions } from "./audit-actions";

export { auditActions } from "./audit-actions";
import { Email, queryId, text } from "./input";
import { queueCountCap } from "./staff-moderation";

/*
 * The staff side (docs/staff.md). Staff requests carry the staff session cookie (rdv_staff), which the
 * browser sends to /staff pages only; web forwards it to these endpoints. A member's session is no staff session.
 *
 *   POST /api/staff/login.php   StaffLoginRequest -> StaffResponse + the rdv_staff cookie (Path=/staff, 12 h) |
 *                               login_failed 401 (any of e-mail, password, code wrong; a code used before) |
 *                               login_blocked 429 (five failures in 15 minutes) | too_many_requests 429
 *   POST /api/staff/logout.php  -> { ok: true }, the session ended and the cookie cleared
 *   GET  /api/staff/me.php      -> StaffResponse | authentication_required 403
 *   GET  /api/staff/audit.php   AuditQuery -> AuditResponse (admins) | forbidden 403
 *   GET  /api/staff/dashboard.php -> DashboardResponse: today's figures of the sites the staff member serves
 */

import { staffRoleNames } from "./staff-permissions";

export { staffRoleNames };
export const StaffRole = z.enum(staffRoleNames);

export const StaffLoginRequest = z.object({
  email: Email,
  password: z.string().min(1).max(200),
  /** A 6-digit TOTP code or a recovery code ("xxxxx-xxxxx"). */
  code: text(20, { min: 6 }),
});
export type StaffLoginRequest = z.infer<typeof StaffLoginRequest>;

export const Staff = z.object({ id: z.number(), email: z.string(), name: z.string(), role: StaffRole, site_ids: z.array(z.number()) });
export type Staff = z.infer<typeof Staff>;

export const StaffResponse = z.object({
  staff: Staff,
  /** How many recovery codes are left after logging in with one (null: logged in with a TOTP code). */
  recovery_codes_left: z.number().nullable().optional(),
});
export type StaffResponse = z.infer<typeof StaffResponse>;

export const auditPageSize = 50;

export type AuditAction = (typeof auditActions)[number];

/** A day as the date field sends it (YYYY-MM-DD), read as UTC. */
const auditDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD").refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), "a date that exists");

export const AuditQuery = z.object({
  staff_id: queryId.optional(),
  action: z.enum(auditActions).optional(),
  /** Entries from the start of this day (UTC) and to the end of `to`'s day. */
  from: auditDay.optional(),
  to: auditDay.optional(),
  target_type: text(30, { min: 1 }).optional(),
  target_id: text(40, { min: 1 }).optional(),
  /** Entries before this id (the next page). */
  before: queryId.optional(),
});

export const AuditEntry = z.object({
  id: z.number(),
  staff_id: z.number(),
  staff_email: z.string(),
  role: StaffRole,
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  site_id: z.number().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  client_ip: z.string().nullable(),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditResponse = z.object({ entries: z.array(AuditEntry), next_before: z.number().nullable() });
export type AuditResponse = z.infer<typeof AuditResponse>;

export const DashboardSite = z.object({
  id: z.number(),
  domain: z.string(),
  name: z.string(),
  signups_today: z.number(),
  paying_members: z.number(),
  /** Payments paid today, per currency, in minor units. */
  revenue_today: z.array(z.object({ currency: z.string(), amount: z.number() })),
  messages_today: z.number(),
  cam_clicks_today: z.number(),
  /** Open queues: photos waiting for review, reports new or in progress; each up to queueCountCap (that many or more). */
  photo_queue: z.number().int().min(0).max(queueCountCap),
  report_queue: z.number().int().min(0).max(queueCountCap),
});
export const DashboardResponse = z.object({
  sites: z.array(DashboardSite),
  open_streams: z.number(),
  /** Background jobs in trouble: push deliveries waiting to retry, data exports failed today (to who serves every site; null for others). */
  jobs: z.object({ push_retrying: z.number(), exports_failed_today: z.number() }).nullable(),
});
export type DashboardResponse = z.infer<typeof DashboardResponse>;

/** A query of one id (?id=12): the console's page of one report, member or profile. */
export const IdQuery = z.object({ id: queryId });
