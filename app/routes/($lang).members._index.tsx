import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MembersQuery, MembersResponse } from "#contract/members";
import { apiFor } from "~/api.server";
import { fixedT } from "~/i18n.server";
import { urlLocale } from "~/locale.server";
import { getSettings, getUser, requireUser } from "~/session.server";
import { useHref } from "~/components/root-data";
import { MemberCard } from "~/components/member-card";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  if (!settings.logged_out_search) await requireUser(request, context, locale);
  else await getUser(request, context);
  const url = new URL(request.url);
  const query = MembersQuery.safeParse({ page: url.searchParams.get("page") ?? undefined });
  if (!query.success) throw data(null, { status: 404 });
  const result = await apiFor(request, context).get("/api/members.php", MembersResponse, { page: query.data.page });
  if (!result.ok) throw data(null, { status: result.status });
  const t = fixedT(locale);
  return {
    title: t("members.metaTitle", { site: settings.name }),
    cdn: settings.cdn_prefix,
    ...result.data,
    pageCount: Math.max(1, Math.ceil(result.data.numResults / result.data.pageSize)),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function Members() {
  const { t } = useTranslation();
  const href = useHref();
  const { results, numResults, pageNumber, pageCount, cdn } = useLoaderData<typeof loader>();
  return (
    <section className="container py-6">
      <div className="flex items-baseline justify-between gap-4">
        <h1 className="text-2xl font-bold text-gray-900">{t("members.title")}</h1>
        <p className="text-sm text-gray-500" data-testid="members-count">
          {t("members.count", { count: numResults })}
        </p>
      </div>
      {results.length === 0 ? (
        <div className="mt-10 rounded-xl bg-white p-10 text-center ring-1 ring-gray-100">
          <p className="font-medium text-gray-800">{t("members.empty")}</p>
          {pageNumber > 1 ? (
            <Link to={href("/members")} className="mt-4 inline-block">
              {t("members.firstPage")}
            </Link>
          ) : null}
        </div>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5" data-testid="member-cards">
          {results.map((member) => (
            <li key={member.id}>
              <MemberCard member={member} cdn={cdn} />
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <nav className="mt-8 flex items-center justify-center gap-4" aria-label={t("members.pagination")}>
          {pageNumber > 1 ? (
            <Link to={`?page=${pageNumber - 1}`} rel="prev" className="rounded-full bg-white px-4 py-2 ring-1 ring-gray-200">
              {t("members.previous")}
            </Link>
          ) : null}
          <span className="text-sm text-gray-600">{t("members.pageOf", { page: pageNumber, pages: pageCount })}</span>
          {pageNumber < pageCount ? (
            <Link to={`?page=${pageNumber + 1}`} rel="next" className="rounded-full bg-white px-4 py-2 ring-1 ring-gray-200">
              {t("members.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
