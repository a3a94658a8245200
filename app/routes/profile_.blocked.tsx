import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BlocksQuery, BlocksResponse } from "#contract/blocks";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { UnblockButton } from "~/features/members/member-actions";
import { pageMeta } from "~/utils/page-title";
import { ButtonLink } from "~/components/ui/button";

/** The members the member blocked, each with Unblock; newest block first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const settings = await getSettings(request, context);
  const query = BlocksQuery.safeParse({ page: new URL(request.url).searchParams.get("page") ?? undefined });
  if (!query.success) throw data(null, { status: 404 });
  const result = await apiFor(request, context).get("/api/blocks.php", BlocksResponse, { page: query.data.page });
  if (!result.ok) throw data(null, { status: result.status });
  const pageCount = Math.max(1, Math.ceil(result.data.numResults / result.data.pageSize));
  // The last member of a later page was unblocked: show the page that is now the last.
  if (result.data.results.length === 0 && query.data.page > pageCount) throw redirect(`/profile/blocked${pageCount > 1 ? `?page=${pageCount}` : ""}`);
  return {
    title: fixedT(locale, "member")("blocked.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "blocked"),
    cdn: settings.cdn_prefix,
    ...result.data,
    pageCount,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function BlockedMembers() {
  const { t } = useTranslation(["member", "common"]);
  const { pathname, search } = useLocation();
  const { results, cdn, pageNumber, pageCount } = useLoaderData<typeof loader>();
  return (
    <section className="container max-w-2xl py-8">
      <Link to="/profile" className="text-sm text-gray-600 hover:text-gray-900">
        ← {t("blocked.toProfile")}
      </Link>
      <h1 className="mt-4 text-2xl font-bold text-gray-900">{t("blocked.title")}</h1>
      <p className="mt-1 text-gray-600">{t("blocked.lead")}</p>
      {results.length === 0 ? (
        <div className="mt-6 rounded-xl bg-white p-10 text-center ring-1 ring-gray-100" data-testid="blocked-empty">
          <p className="font-medium text-gray-800">{t("blocked.empty")}</p>
          <Link to="/members" className="mt-4 inline-block">
            {t("blocked.toSearch")}
          </Link>
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-gray-100 rounded-xl bg-white ring-1 ring-gray-100" data-testid="blocked-list">
          {results.map((member) => (
            <li key={member.id} className="flex items-center gap-3 p-3">
              {member.main_image ? (
                <img src={cdn + member.main_image.thumb_filename} alt="" width={48} height={48} className="h-12 w-12 shrink-0 rounded-full bg-gray-100 object-cover" />
              ) : (
                <div className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-gray-100 font-semibold text-gray-400" aria-hidden="true">
                  {member.name.slice(0, 1)}
                </div>
              )}
              <div className="min-w-0 flex-1">
                <Link to={`/members/${member.id}`} className="block truncate font-semibold text-gray-900">
                  {member.name}, <span className="font-normal">{member.age}</span>
                </Link>
                <p className="truncate text-sm text-gray-500">{member.city ?? t("common:members.cityUnknown")}</p>
              </div>
              <UnblockButton member={member} redirectTo={pathname + search} label={t("blocked.unblockName", { name: member.name })} />
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <nav className="mt-6 flex items-center justify-center gap-4" aria-label={t("common:members.pagination")}>
          {pageNumber > 1 ? (
            <ButtonLink to={`?page=${pageNumber - 1}`} rel="prev" variant="neutral" size="md">
              {t("common:members.previous")}
            </ButtonLink>
          ) : null}
          <span className="text-sm text-gray-600">{t("common:members.pageOf", { page: pageNumber, pages: pageCount })}</span>
          {pageNumber < pageCount ? (
            <ButtonLink to={`?page=${pageNumber + 1}`} rel="next" variant="neutral" size="md">
              {t("common:members.next")}
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
