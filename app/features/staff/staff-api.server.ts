import { redirect, type AppLoadContext } from "@remix-run/node";
import { StaffResponse, type Staff } from "#contract/staff";
import { apiFor } from "~/utils/api.server";

/**
 * The staff member of a /staff request (the rdv_staff cookie, which the browser sends to /staff pages only), or a
 * redirect to /staff/login. A member's own session plays no part: staff and members are apart.
 */
export async function requireStaff(request: Request, context: AppLoadContext): Promise<Staff> {
  const result = await apiFor(request, context).get("/api/staff/me.php", StaffResponse, undefined, { sessionOptional: true });
  if (!result.ok) throw redirect("/staff/login");
  return result.data.staff;
}
