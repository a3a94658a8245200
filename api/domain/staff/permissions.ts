import { servesEverySite, roleMay, type StaffAction } from "#contract/staff-permissions";
import type { StaffMember } from "./sessions";

export { staffPermissions, type StaffAction } from "#contract/staff-permissions";

/**
 * Whether a staff member may take an action, on a site when the action concerns one: the role must be allowed
 * (contract/staff-permissions.ts), and the site one the member serves (an admin serves every site).
 */
export function staffMay(staff: Pick<StaffMember, "role" | "siteIds">, action: StaffAction, siteId?: number | null): boolean {
  if (!roleMay(staff.role, action)) return false;
  if (siteId === undefined || siteId === null || servesEverySite(staff.role)) return true;
  return staff.siteIds.includes(siteId);
}
