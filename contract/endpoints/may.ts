import { roleMay, type StaffAction, type StaffRoleName } from "../staff-permissions";
import type { Endpoint } from "./endpoint";

/*
 * Whether a staff role may call an endpoint of the table (the action its entry names), or take an action that one
 * endpoint carries among others (a member page's money and erase forms post to the same endpoint). The api's gate
 * decides; staff pages ask this to show only what the role may use. No zod here: a page's JavaScript may import it.
 */
export function may(role: StaffRoleName, target: Pick<Endpoint, "caller"> | StaffAction): boolean {
  if (typeof target === "string") return roleMay(role, target);
  return typeof target.caller === "object" ? roleMay(role, target.caller.staff) : true;
}
