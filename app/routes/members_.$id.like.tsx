import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { LikeQuery, LikeResponse, UnlikeResponse } from "#contract/likes";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getUser } from "~/utils/session.server";
import type { LikeActionData } from "~/types";

/**
 * Like and unlike a member: POST intent=like|unlike. Without JavaScript the action redirects
 * back to the member's page (with ?match=1 when the like made a match, so the match modal shows); the like
 * button's fetcher sends js=1 and gets the outcome as data instead, so the page does not reload.
 * After a refused like (gone, blocked) the member page itself tells what is true now.
 */

export async function loader({ params }: LoaderFunctionArgs) {
  const query = LikeQuery.safeParse({ id: params.id });
  if (!query.success) throw data(null, { status: 404 });
  throw redirect(`/members/${query.data.id}`);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const query = LikeQuery.safeParse({ id: params.id });
  if (!query.success) throw data(null, { status: 404 });
  const id = query.data.id;
  const memberPage = `/members/${id}`;
  // docs/product.md §6: liking requires login; back to the member's page afterwards.
  if (!(await getUser(request, context))) throw redirect(`/login?redirectTo=${encodeURIComponent(memberPage)}`);

  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "like" && intent !== "unlike") throw data(null, { status: 400 });
  const withJs = form.get("js") === "1";
  const api = apiFor(request, context);

  const result = intent === "like" ? await api.post("/api/like.php", LikeResponse, { id }) : await api.delete("/api/like.php", UnlikeResponse, { id });
  if (!result.ok) {
    if (!withJs) throw redirect(memberPage);
    return data<LikeActionData>({ ok: false, message: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
  }
  const match = "match" in result.data ? result.data.match : false;
  if (!withJs) throw redirect(match ? `${memberPage}?match=1` : memberPage);
  return data<LikeActionData>({ ok: true, intent, match });
}
