import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MembersQuery, MembersResponse, visitorMaySearch } from "#contract/members";
import { apiFor, requestHasTrafficSource } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { cachedSiteSettings, callWithMember, getSettings, getUser, requireUser } from "~/utils/session.server";
import { getRegions } from "~/features/account/regions.server";
import { cardView, MemberCard, useMemberCardGrid, type CardView } from "~/features/members/member-card";
import { CamTile } from "~/features/members/cam-tile";
import { withCamTiles } from "#contract/cam";
import { useFictionalBadge, useRootData } from "~/utils/root-data";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";
import { Pager } from "~/components/ui/pager";
import { regionLabelKey } from "#contract/region-kinds";
import { offeredFilters, type SearchFilter } from "~/features/discovery/search-filters";
import { countryOptions } from "~/utils/intl";

/** Cards in the grid's first row at its widest (xl:grid-cols-5): on the first screen, so their photos are not lazy. */
const firstRow = 5;
type Filters = Partial<Record<SearchFilter, string>>;

/** The search a request asks for, with only the filters the site offers (docs/product.md §3 search_fields). */
function searchOf(url: URL, searchFields: readonly string[]) {
  const offered = offeredFilters(searchFields);
  const filters: Filters = {};
  for (const key of offered) {
    const value = url.searchParams.get(key)?.trim();
    if (value) filters[key] = value;
  }
  const query = MembersQuery.safeParse({ ...filters, page: url.searchParams.get("page") ?? undefined });
  const params = query.success ? { ...filters, page: query.data.page } : null;
  return { offered, filters, params };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const url = new URL(request.url);
  // A member's search starts before the first await and brings the member along, so the page costs one api call
  // (callWithMember: the root loader asks for the member once it has the settings). The filters the site offers come
  // from its settings, which this instance nearly always holds already (cachedSiteSettings); when it does not, or
  // they changed meanwhile, the search waits for them and the member is asked for on its own.
  const known = cachedSiteSettings(url);
  const first = known ? searchOf(url, known.search_fields) : null;
  const early = first?.params ? callWithMember(request, context, "/api/members.php", MembersResponse, first.params) : null;
  early?.catch(() => undefined);
  const settings = await getSettings(request, context);
  const search = first && known?.search_fields.join() === settings.search_fields.join() ? first : searchOf(url, settings.search_fields);
  const { offered, filters, params } = search;
  if (!visitorMaySearch(settings, requestHasTrafficSource(request))) await requireUser(request, context);
  else await getUser(request, context);
  const t = fixedT(locale);
  const base = {
    title: t("members.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "members", { site: settings.name }),
    filters,
    offered,
    // docs/product.md §1 live-cam tiles, without the partner's address (the click route asks the api for it).
    cam: settings.cam_tiles ? { title: settings.cam_tiles.title, text: settings.cam_tiles.text, cta: settings.cam_tiles.cta, first: settings.cam_tiles.first, every: settings.cam_tiles.every } : null,
    countries: countryOptions(locale, settings.countries),
    regions: [] as { value: string; label: string }[],
  };
  if (filters.country) {
    const regions = await getRegions(request, context, filters.country);
    if (regions) base.regions = regions.map((r) => ({ value: r.code, label: r.name }));
  }
  const result = params ? ((search === first ? await early : null) ?? (await apiFor(request, context).get("/api/members.php", MembersResponse, params))) : null;
  if (result && !result.ok && result.error.error === "authentication_required") {
    // Refused to a session the api no longer knows: to the login page, as any members-only page.
    await requireUser(request, context);
  }
  if (!result?.ok) {
    if (result && result.status !== 400) throw data(null, { status: result.status });
    // A search the member typed wrong (e.g. minimum age above maximum): the form stays, with a message.
    return { ...base, invalid: true, results: [] as CardView[], similar: [] as CardView[], numResults: 0, numResultsCapped: false, pageNumber: 1, pageCount: 1 };
  }
  const { results, similar, numResults, numResultsCapped, pageNumber, pageSize } = result.data;
  const card = (member: (typeof results)[number]) => cardView(member, settings.cdn_prefix);
  return {
    ...base,
    invalid: false,
    results: results.map(card),
    similar: similar.map(card),
    numResults,
    numResultsCapped,
    pageNumber,
    pageCount: Math.max(1, Math.ceil(numResults / pageSize)),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Members() {
  const { t, i18n } = useTranslation();
  const { results, similar, numResults, numResultsCapped, pageNumber, pageCount, filters, invalid, cam } = useLoaderData<typeof loader>();
  // The largest image of the first screen: the first photo of the grid (a card without a photo shows an initial).
  const firstPhoto = results.findIndex((member) => member.photo);
  // A card's place among the results (tiles take no part): the first row loads at once, the first photo first.
  const places = new Map(results.map((member, index) => [member.id, index]));
  const priorityOf = (id: number) => {
    const index = places.get(id) ?? firstRow;
    return index === firstPhoto ? "high" : index < firstRow ? "eager" : undefined;
  };
  const grid = useMemberCardGrid();
  const searching = Object.keys(filters).length > 0;
  const pageLink = (page: number) => `?${new URLSearchParams({ ...filters, page: String(page) }).toString()}`;
  return (
    <section className="container py-6">
      <div className="flex items-baseline justify-between gap-4">
        <h1 className="text-2xl font-bold text-gray-900">{t(searching ? "members.searchTitle" : "members.title")}</h1>
        <p className="text-sm text-gray-500" data-testid="members-count">
          {/* Counted up to a bound (api/domain/members.ts searchResultsCap): above it, "more than". */}
          {numResultsCapped ? t("members.countMore", { limit: numResults.toLocaleString(i18n.language) }) : t("members.count", { count: numResults })}
        </p>
      </div>
      <DiscoveryLinks />
      <SearchForm />
      {invalid ? (
        <p role="alert" className="mt-6 rounded-md bg-red-50 px-3 py-2 text-sm text-danger" data-testid="search-invalid">
          {t("members.search.invalid")}
        </p>
      ) : results.length === 0 ? (
        <div className="mt-6 rounded-xl bg-white p-10 text-center ring-1 ring-gray-100" data-testid="members-empty">
          <p className="font-medium text-gray-800">{t(searching ? "members.search.none" : "members.empty")}</p>
          {pageNumber > 1 || searching ? (
            <Link to="/members" className="mt-4 inline-block">
              {t(searching ? "members.search.clear" : "members.firstPage")}
            </Link>
          ) : null}
        </div>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5" data-testid="member-cards" onClick={grid.onClick}>
          {withCamTiles(results, cam).map((entry) =>
            entry.kind === "cam" ? (
              <li key={`cam-${entry.tile}`}>
                <CamTile tiles={cam!} slot="search" tile={entry.tile} />
              </li>
            ) : (
              <li key={entry.item.id}>
                {/* The first row (5 cards at the widest) is on the first screen: loaded at once, the first one first. */}
                <MemberCard member={entry.item} priority={priorityOf(entry.item.id)} grid={grid.card} />
              </li>
            ),
          )}
        </ul>
      )}
      {results.some((member) => member.fictional) ? <FictionalLegend /> : null}
      <Pager page={pageNumber} pages={pageCount} hasNext={pageNumber < pageCount} linkTo={pageLink} />
      {similar.length > 0 ? (
        <section className="mt-10" aria-labelledby="similar-title">
          <h2 id="similar-title" className="text-xl font-semibold text-gray-900">
            {t("members.search.similar")}
          </h2>
          <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5" data-testid="similar-cards" onClick={grid.onClick}>
            {withCamTiles(similar, cam, 1).map((entry) =>
              entry.kind === "cam" ? (
                <li key={`cam-${entry.tile}`}>
                  <CamTile tiles={cam!} slot="similar" tile={entry.tile} />
                </li>
              ) : (
                <li key={entry.item.id}>
                  <MemberCard member={entry.item} grid={grid.card} />
                </li>
              ),
            )}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

/** The one-at-a-time ways of meeting members, for logged-in members. */
/** Under results with site-run profiles: what their badge means, in the site's own words (fictional_plural, fictional_singular) where it has them. */
function FictionalLegend() {
  const { t } = useTranslation();
  const badge = useFictionalBadge();
  const plural = useRootData()?.site.fictional.plural || t("member:fictional.plural");
  return (
    <p className="mt-4 text-sm text-gray-600" data-testid="fictional-legend">
      {t("members.fictionalLegend", { plural: plural.charAt(0).toUpperCase() + plural.slice(1), badge })}
    </p>
  );
}

function DiscoveryLinks() {
  const { t } = useTranslation("discovery");
  if (!useRootData()?.user) return null;
  return (
    <nav aria-label={t("links.label")} className="mt-2 flex gap-4 text-sm font-semibold" data-testid="discovery-links">
      <Link to="/match-finder">{t("links.matchFinder")}</Link>
      <Link to="/swipe-game">{t("links.swipeGame")}</Link>
    </nav>
  );
}

const fieldClass = "mt-1 block w-full rounded-md border border-gray-300 bg-white px-2 py-2 text-sm";

/** A GET form: the search lands in the URL; "Clear" empties the results and the count together (docs/product.md §4). */
function SearchForm() {
  const { t } = useTranslation();
  const { filters, offered, countries, regions } = useLoaderData<typeof loader>();
  const shows = (key: SearchFilter) => offered.includes(key);
  return (
    <Form method="get" action="/members" className="mt-4 grid grid-cols-2 gap-3 rounded-xl bg-white p-4 ring-1 ring-gray-100 md:grid-cols-6" data-testid="search-form">
      {shows("gender") ? (
        <div>
          <label htmlFor="search-gender" className="text-sm font-medium text-gray-700">
            {t("members.search.gender")}
          </label>
          <select id="search-gender" name="gender" defaultValue={filters.gender ?? ""} className={fieldClass}>
            <option value="">{t("members.search.any")}</option>
            <option value="female">{t("profile.gender.female")}</option>
            <option value="male">{t("profile.gender.male")}</option>
          </select>
        </div>
      ) : null}
      {shows("country") ? (
        <div>
          <label htmlFor="search-country" className="text-sm font-medium text-gray-700">
            {t("steps.country")}
          </label>
          <select id="search-country" name="country" defaultValue={filters.country ?? ""} className={fieldClass}>
            <option value="">{t("members.search.any")}</option>
            {countries.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {shows("region") ? (
        <div>
          {/* The region list is the searched country's, named as that country names its regions. */}
          <label htmlFor="search-region" className="text-sm font-medium text-gray-700">
            {filters.country ? t(regionLabelKey(filters.country), { ns: "profile" }) : t("steps.region")}
          </label>
          <select id="search-region" name="region" defaultValue={filters.region ?? ""} className={fieldClass} disabled={regions.length === 0}>
            <option value="">{t(regions.length === 0 ? "members.search.regionAfterCountry" : "members.search.any")}</option>
            {regions.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {shows("min_age") ? (
        <div>
          <label htmlFor="search-min_age" className="text-sm font-medium text-gray-700">
            {t("members.search.minAge")}
          </label>
          <input type="number" id="search-min_age" name="min_age" min={18} max={99} defaultValue={filters.min_age ?? ""} className={fieldClass} />
        </div>
      ) : null}
      {shows("max_age") ? (
        <div>
          <label htmlFor="search-max_age" className="text-sm font-medium text-gray-700">
            {t("members.search.maxAge")}
          </label>
          <input type="number" id="search-max_age" name="max_age" min={18} max={99} defaultValue={filters.max_age ?? ""} className={fieldClass} />
        </div>
      ) : null}
      <div className="col-span-2 flex items-end gap-2 md:col-span-1">
        <Button size="sm" className="flex-1">
          {t("members.search.submit")}
        </Button>
        <Link to="/members" className="rounded-full px-3 py-2 text-sm text-gray-600 hover:text-gray-900" data-testid="search-clear">
          {t("members.search.clear")}
        </Link>
      </div>
    </Form>
  );
}
