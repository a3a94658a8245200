import type { AppLoadContext } from "@remix-run/node";
import { data } from "@remix-run/node";
import { PackagesResponse } from "#contract/payments";
import { CountryCode } from "#contract/payments";
import { queryId } from "#contract/input";
import type { Locale } from "#contract/locales";
import { apiFor } from "./api.server";
import { callWithMember, requireUser } from "./session.server";

/**
 * The packages of a payment country (?country=, else the IP's) in one api call that brings the member
 * along (callWithMember). `member: true` sends a visitor to log in (the members area and /credits).
 */
export async function loadPackages(request: Request, context: AppLoadContext, locale: Locale, options: { member: boolean; packageId?: number }): Promise<PackagesResponse> {
  const asked = CountryCode.safeParse(new URL(request.url).searchParams.get("country") ?? undefined);
  const query = { country: asked.success ? asked.data : undefined, package_id: options.packageId };
  const early = callWithMember(request, context, "/api/packages.php", PackagesResponse, query);
  if (options.member) await requireUser(request, context, locale);
  const result = (await early) ?? (await apiFor(request, context).get("/api/packages.php", PackagesResponse, query));
  if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
  return result.data;
}

/** A route's {id} as the api takes it; 404 for anything else. */
export function routeId(value: string | undefined): number {
  const parsed = queryId.safeParse(value);
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data;
}
