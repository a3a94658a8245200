import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, NavLink, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { likesTabs } from "#contract/likes";
import { LikesQuery, likesPageSize } from "#contract/likes";
import { Pager } from "~/components/ui/pager";
import type { MemberCard } from "#contract/members";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { callWithMember, getSettings, requireUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { pageMeta } from "~/utils/page-title";
import { endpoints } from "#contract/endpoints/index";

/**
 * docs/product.md §2 /likes/{type}: the tabs received, sent and matches; the api answers the open tab's list only.
 * Written here rather than imported: contract/likes.ts holds zod schemas, which the page's JavaScript does not need.
 */
const tabs = ["received", "sent", "matches"] as const satisfies typeof likesTabs;

type Entry = { card: MemberCard; isNew: boolean; match: boolean };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const type = tabs.find((tab) => tab === params.type);
  // A tab's page (?page=, likesPageSize a page up to likesListCap); an unknown page is the first.
  const page = LikesQuery.shape.page.safeParse(new URL(request.url).searchParams.get("page") ?? undefined).data ?? 1;
  // The likes bring the member along (one api call for the page); see callWithMember.
  const early = type ? callWithMember(request, context, endpoints.likes, { tab: type, page }) : null;
  early?.catch(() => undefined);
  await requireUser(request, context);
  if (!type) throw data(null, { status: 404 });
  const settings = await getSettings(request, context);
  const result = (await early) ?? (await apiFor(request, context).call(endpoints.likes, { query: { tab: type, page } }));
  if (!result.ok) throw data(null, { status: result.status });
  const likes = result.data;
  let entries: Entry[];
  if (type === "received") {
    // docs/product.md §4: new likes first, then older ones (the api's order); the cards come in the same order.
    const cards = new Map(likes.liked_by_profiles.map((card) => [card.id, card]));
    entries = likes.liked_by.flatMap((by) => {
      const card = cards.get(by.id);
      return card ? [{ card, isNew: by.like_new, match: by.match }] : [];
    });
  } else if (type === "sent") {
    entries = likes.profiles.map((card) => ({ card, isNew: false, match: card.match }));
  } else {
    entries = likes.matches.map((card) => ({ card, isNew: false, match: true }));
  }
  const t = fixedT(locale, "likes");
  return {
    type,
    entries,
    newLikes: likes.new_likes,
    page,
    hasMore: likes.has_more,
    capped: !likes.has_more && (page - 1) * likesPageSize + entries.length >= likes.limit,
    limit: likes.limit,
    cdn: settings.cdn_prefix,
    title: t("page.metaTitle", { tab: t(`page.${type}`), site: settings.name }),
    description: metaDescription(locale, "likes"),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Likes() {
  const { t } = useTranslation("likes");
  const { type, entries, page, hasMore, newLikes, capped, limit, cdn } = useLoaderData<typeof loader>();
  return (
    <section className="container py-6" data-testid="likes-page">
      <h1 className="text-2xl font-bold text-gray-900">{t("page.title")}</h1>
      <nav aria-label={t("page.tabs")} className="mt-4 flex gap-1 border-b border-gray-200" data-testid="likes-tabs">
        {tabs.map((tab) => (
          <NavLink
            key={tab}
            to={`/likes/${tab}`}
            className="-mb-px flex items-center gap-1.5 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-gray-600 hover:text-gray-900 aria-[current=page]:border-primary aria-[current=page]:text-primary"
          >
            {t(`page.${tab}`)}
            {tab === "received" && newLikes > 0 ? (
              <span className="min-w-5 rounded-full bg-primary px-1.5 py-0.5 text-center text-xs font-semibold text-white" aria-label={t("page.newCount", { count: newLikes })}>
                {newLikes >= 100 ? "99+" : newLikes}
              </span>
            ) : null}
          </NavLink>
        ))}
      </nav>
      {entries.length === 0 ? (
        <div className="mt-6 rounded-xl bg-white p-10 text-center ring-1 ring-gray-100" data-testid="likes-empty">
          <p className="font-medium text-gray-800">{t(`page.empty.${type}`)}</p>
          <Link to="/members" className="mt-4 inline-block">
            {t("page.emptyLink")}
          </Link>
        </div>
      ) : (
        <>
          <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5" data-testid="like-entries">
            {entries.map((entry) => (
              <li key={entry.card.id} data-testid="like-entry" data-new={entry.isNew ? "true" : "false"}>
                <LikeCard entry={entry} cdn={cdn} />
              </li>
            ))}
          </ul>
          <Pager page={page} pages={null} hasNext={hasMore} linkTo={(to) => `?page=${to}`} />
          {capped ? <p className="mt-4 text-center text-sm text-gray-500">{t("page.capped", { count: limit })}</p> : null}
        </>
      )}
    </section>
  );
}

/** A member in a likes list: opens /likes/m/{id}; "New" on a like not yet seen, "Mutual like" on a match. */
function LikeCard({ entry, cdn }: { entry: Entry; cdn: string }) {
  const { t } = useTranslation("likes");
  const common = useTranslation().t;
  const { card } = entry;
  return (
    <Link to={`/likes/m/${card.id}`} className="group relative block overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-gray-100 hover:ring-primary">
      {card.main_image ? (
        <img src={cdn + card.main_image.thumb_filename} alt={card.name} loading="lazy" width={240} height={240} className="aspect-square w-full bg-gray-100 object-cover" />
      ) : (
        <div className="flex aspect-square w-full items-center justify-center bg-gray-100 text-4xl font-semibold text-gray-400" aria-hidden="true">
          {card.name.slice(0, 1)}
        </div>
      )}
      <div className="absolute left-2 top-2 flex flex-col items-start gap-1">
        {entry.isNew ? (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-white" data-testid="like-new">
            {t("page.new")}
          </span>
        ) : null}
        {entry.match ? <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-semibold text-white">{t("page.match")}</span> : null}
      </div>
      <div className="p-3">
        <p className="truncate font-semibold text-gray-900">
          {card.name}, <span className="font-normal">{card.age}</span>
        </p>
        <p className="truncate text-sm text-gray-500">{card.city ?? common("members.cityUnknown")}</p>
      </div>
    </Link>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
