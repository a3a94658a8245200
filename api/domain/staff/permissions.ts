import type { StaffRole } from "../../db/schema";
import type { StaffMember } from "./sessions";

/**
 * docs/staff.md: what each role may do, in one place. Every staff endpoint names one of these actions
 * (api/http/staff.ts); tests/api/staff.test.ts walks every role against every endpoint.
 */
export const staffPermissions = {
  /** The dashboard and one's own account. */
  "staff.self": ["admin", "moderator", "support", "operator"],
  /** The audit log. */
  "audit.read": ["admin"],
  /** Staff accounts: make, change, disable. */
  "staff.manage": ["admin"],
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffAction = keyof typeof staffPermissions;

/**
 * Whether a staff member may take an action, on a site when the action concerns one: the role must be allowed, and
 * the site one the member serves (an admin serves every site).
 */
export function staffMay(staff: Pick<StaffMember, "role" | "siteIds">, action: StaffAction, siteId?: number | null): boolean {
  if (!(staffPermissions[action] as readonly StaffRole[]).includes(staff.role)) return false;
  if (siteId === undefined || siteId === null || staff.role === "admin") return true;
  return staff.siteIds.includes(siteId);
}
