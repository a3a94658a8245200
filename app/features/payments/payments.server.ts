import type { AppLoadContext } from "@remix-run/node";
import { data } from "@remix-run/node";
import { DiscountCodeInput, PackagesResponse } from "#contract/payments";
import { CountryCode } from "#contract/payments";
import { queryId } from "#contract/input";
import type { Locale } from "#contract/locales";
import { apiFor } from "~/utils/api.server";
import { callWithMember, requireUser } from "~/utils/session.server";

/**
 * The packages of a payment country (?country=, else the IP's) in one api call that brings the member
 * along (callWithMember). `member: true` sends a visitor to log in (the members area and /credits).
 */
export async function loadPackages(
  request: Request,
  context: AppLoadContext,
  locale: Locale,
  options: { member: boolean; packageId?: number },
): Promise<PackagesResponse & { typedCode: string | null }> {
  const params = new URL(request.url).searchParams;
  const asked = CountryCode.safeParse(params.get("country") ?? undefined);
  // A discount code typed on /credits or a package page (?code=, a GET form that works without JavaScript).
  const typed = params.get("code")?.trim() || null;
  const code = typed ? DiscountCodeInput.safeParse(typed) : null;
  const query = { country: asked.success ? asked.data : undefined, package_id: options.packageId, code: code?.success ? code.data : undefined };
  const early = callWithMember(request, context, "/api/packages.php", PackagesResponse, query);
  if (options.member) await requireUser(request, context);
  const result = (await early) ?? (await apiFor(request, context).get("/api/packages.php", PackagesResponse, query));
  if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
  // A code no code can be (odd characters, too long) is not sent to the api: it is not found.
  const discountError = code && !code.success ? { reason: "not_found" as const, code: typed!.slice(0, 40) } : result.data.discount_error;
  const applied = result.data.discount?.kind === "code" ? result.data.discount.code : null;
  return { ...result.data, discount_error: discountError, typedCode: applied };
}

/** A route's {id} as the api takes it; 404 for anything else. */
export function routeId(value: string | undefined): number {
  const parsed = queryId.safeParse(value);
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data;
}
