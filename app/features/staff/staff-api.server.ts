import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { queryId } from "#contract/input";
import type { Staff } from "#contract/staff";
import { apiFor } from "~/utils/api.server";
import { memo } from "~/utils/session.server";
import { endpoints } from "#contract/endpoints/index";

/**
 * The staff member of a /staff request (the rdv_staff cookie, which the browser sends to /staff pages only), or a
 * redirect to /staff/login. A member's own session plays no part: staff and members are apart.
 */
export async function requireStaff(request: Request, context: AppLoadContext): Promise<Staff> {
  // Asked once per request: the staff frame's loader and its page's both need it.
  const result = await memo(context, "staff", () => apiFor(request, context).call(endpoints.staffMe, { ...{ sessionOptional: true } }));
  if (!result.ok) throw redirect("/staff/login");
  return result.data.staff;
}

/** The id of a staff page's route (/staff/members/12), parsed as the api parses ids (contract/input.ts queryId); else 404. */
export function staffRouteId(params: { id?: string }): number {
  const parsed = queryId.safeParse(params.id);
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data;
}
