import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { DiscoveryDecision,  DiscoveryQuery,  type DiscoveryGame } from "#contract/discovery";
import { queryId } from "#contract/input";
import type { MemberCard } from "#contract/members";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { discoveryPaths } from "./paths";
import { regionNames } from "~/utils/intl";
import { endpoints } from "#contract/endpoints/index";

/*
 * The loader and action behind /swipe-game and /match-finder (one implementation for both games).
 * Without JavaScript the buttons post a plain form: the action records the decision and redirects back
 * (with ?match=<id> after a match, for the match notice). With JavaScript the card posts through a
 * fetcher with enhanced=1: the action answers the outcome as data and the loader revalidates.
 */

/** The form of the Like and Pass buttons. */
const DecisionForm = z.object({
  decision: DiscoveryDecision,
  id: queryId,
});

export type DiscoveryActionData = { matched: MemberCard | null; error: string | null };

export function discoveryLoader(game: DiscoveryGame) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const locale = urlLocale(request);
    await requireUser(request, context);
    const settings = await getSettings(request, context);
    const t = fixedT(locale, "discovery");
    // ?match= only names whom to show in the match notice; a value that is no id is ignored.
    const match = DiscoveryQuery.shape.match.safeParse(new URL(request.url).searchParams.get("match") ?? undefined);
    const api = apiFor(request, context);
    const result = await api.call(endpoints.discovery, { query: { game, match: match.success ? match.data : undefined } });
    if (!result.ok) throw data(null, { status: result.status });
    const { profile, likes_left_today, daily_like_limit, matched } = result.data;
    const countryName = regionNames(locale);
    const interests = new Map(settings.interests.map((i) => [i.id, i.key]));
    const card = profile
      ? {
          ...profile,
          place: [profile.city, countryName.of(profile.country)].filter(Boolean).join(", "),
          interestKeys: profile.interests.flatMap((id) => interests.get(id) ?? []),
        }
      : null;
    return {
      game,
      card,
      likesLeft: likes_left_today,
      likeLimit: daily_like_limit,
      matched,
      cdn: settings.cdn_prefix,
      title: t(game === "swipe" ? "swipe.metaTitle" : "matchFinder.metaTitle", { site: settings.name }),
      description: metaDescription(locale, game === "swipe" ? "swipeGame" : "matchFinder"),
    };
  };
}

export type DiscoveryLoaderData = Awaited<ReturnType<ReturnType<typeof discoveryLoader>>>;

export function discoveryAction(game: DiscoveryGame) {
  return async ({ request, context }: ActionFunctionArgs) => {
    const locale = urlLocale(request);
    await requireUser(request, context);
    const common = fixedT(locale);
    const formData = await request.formData();
    const enhanced = formData.get("enhanced") === "1";
    const back = discoveryPaths[game];
    const form = DecisionForm.safeParse({ decision: formData.get("decision"), id: formData.get("id") });
    if (!form.success) return data<DiscoveryActionData>({ matched: null, error: common("errors.validation_failed") }, { status: 400 });

    const result = await apiFor(request, context).call(endpoints.discoveryAnswer, { body: { game, ...form.data } });
    if (result.ok) {
      if (enhanced) return data<DiscoveryActionData>({ matched: result.data.matched, error: null });
      throw redirect(result.data.matched ? `${back}?match=${result.data.matched.id}` : back);
    }
    // The member left, hid or blocked in the meantime: simply show the next one.
    if (result.error.error === "not_found") {
      if (enhanced) return data<DiscoveryActionData>({ matched: null, error: null });
      throw redirect(back);
    }
    if (result.status === 400 || result.status === 429) {
      return data<DiscoveryActionData>({ matched: null, error: apiErrorMessage(common, result.error) }, { status: result.status });
    }
    throw data(null, { status: result.status });
  };
}
