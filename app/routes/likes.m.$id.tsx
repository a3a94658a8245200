import type { LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { LikeQuery } from "#contract/likes";
import { apiFor } from "~/utils/api.server";
import { requireUser } from "~/utils/session.server";
import { endpoints } from "#contract/endpoints/index";


/**
 * /likes/m/{id}: a member opened from the likes lists. Opening the member's profile (member.php) clears the
 * new-like flag of their like (docs/product.md §4 "Opening a liked profile clears its new-like flag"); that happens here,
 * before the redirect to the member's page, so the page's badges already count without it. The page is the
 * same as from the search (actions, match modal); ?from=likes marks the likes context, and being a new query
 * it also makes the client-side navigation reload the root data (the nav badge).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const query = LikeQuery.safeParse({ id: params.id });
  if (!query.success) throw data(null, { status: 404 });
  const opened = await apiFor(request, context).call(endpoints.member, { query: { id: query.data.id } });
  if (!opened.ok && opened.status === 404) throw data(null, { status: 404 });
  // Any other refusal (the member blocked the viewer) is told by the member page itself.
  throw redirect(`/members/${query.data.id}?from=likes`);
}

/** Never rendered (the loader always redirects); it makes a bad id the site's 404 page instead of a bare answer. */
export default function LikedMember() {
  return null;
}
