import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MemberQuery, MemberResponse } from "#contract/members";
import { RegionsResponse } from "#contract/settings";
import { apiFor } from "~/api.server";
import { urlLocale } from "~/locale.server";
import { getSettings, getUser, requireUser } from "~/session.server";
import { GeneralErrorBoundary } from "~/components/error-page";
import { useHref } from "~/components/root-data";

/** A member's page (issue 4 item 4): photos and profile. The actions (like, message, gift, block) come with likes. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  if (!settings.logged_out_search) await requireUser(request, context, locale);
  else await getUser(request, context);
  const query = MemberQuery.safeParse({ id: params.id });
  if (!query.success) throw data(null, { status: 404 });
  const api = apiFor(request, context);
  const result = await api.get("/api/member.php", MemberResponse, { id: query.data.id });
  if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
  const { profile } = result.data;
  const regions = profile.region ? await api.get("/api/regions.php", RegionsResponse, { country: profile.country }) : null;
  const regionName = regions?.ok ? (regions.data.regions.find((r) => r.code === profile.region)?.name ?? null) : null;
  const place = [profile.city, regionName, new Intl.DisplayNames([locale], { type: "region" }).of(profile.country)].filter(Boolean).join(", ");
  const interests = new Map(settings.interests.map((i) => [i.id, i.key]));
  return {
    profile,
    place,
    interestKeys: profile.interests.flatMap((id) => interests.get(id) ?? []),
    cdn: settings.cdn_prefix,
    title: `${profile.name}, ${profile.age} | ${settings.name}`,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export default function MemberPage() {
  const { t } = useTranslation();
  const href = useHref();
  const { profile, place, interestKeys, cdn } = useLoaderData<typeof loader>();
  const [main, ...more] = profile.photos;
  return (
    <article className="container max-w-3xl py-6" data-testid="member-page">
      <Link to={href("/members")} className="text-sm text-gray-600 hover:text-gray-900">
        ← {t("memberPage.back")}
      </Link>
      <div className="mt-4 grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div>
          {main ? (
            <img src={cdn + main.filename} alt={profile.name} width={480} height={480} className="aspect-square w-full rounded-2xl bg-gray-100 object-cover" />
          ) : (
            <div className="flex aspect-square w-full items-center justify-center rounded-2xl bg-gray-100 text-6xl font-semibold text-gray-400" aria-hidden="true">
              {profile.name.slice(0, 1)}
            </div>
          )}
          {more.length > 0 ? (
            <ul className="mt-3 grid grid-cols-4 gap-2">
              {more.map((photo) => (
                <li key={photo.filename}>
                  <a href={cdn + photo.filename}>
                    <img src={cdn + photo.thumb_filename} alt="" loading="lazy" width={120} height={120} className="aspect-square w-full rounded-lg bg-gray-100 object-cover" />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="mt-2 text-sm text-gray-500" data-testid="photo-count">
            {t("memberPage.photoCount", { count: profile.photos.length })}
          </p>
        </div>
        <div>
          <h1 className="text-3xl font-bold text-gray-900">
            {profile.name}, <span className="font-normal">{profile.age}</span>
          </h1>
          {place ? <p className="mt-1 text-gray-600">{place}</p> : null}
          <h2 className="mt-6 text-lg font-semibold text-gray-900">{t("steps.aboutMe")}</h2>
          <p className="mt-2 whitespace-pre-line text-gray-700">{profile.about_me || t("memberPage.noAbout", { name: profile.name })}</p>
          {interestKeys.length > 0 ? (
            <>
              <h2 className="mt-6 text-lg font-semibold text-gray-900">{t("steps.interests")}</h2>
              <ul className="mt-2 flex flex-wrap gap-2">
                {interestKeys.map((key) => (
                  <li key={key} className="rounded-full bg-primary-light px-3 py-1 text-sm text-primary-dark">
                    {t(`interests.${key}`)}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      </div>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
