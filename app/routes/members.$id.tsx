import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MemberQuery, MemberResponse, visitorMaySearch, type MemberProfile } from "#contract/members";
import { profileChoiceFields } from "#contract/profile-choices";
import { apiFor, requestHasTrafficSource } from "~/utils/api.server";
import { metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { callWithMember, getSettings, getUser, requireUser } from "~/utils/session.server";
import { getRegions } from "~/features/account/regions.server";
import { MemberPhotos } from "~/features/members/member-photos";
import { LikeButton } from "~/features/discovery/like-button";
import { MatchModal } from "~/features/discovery/match-modal";
import { FictionalLabel, MemberActions, MemberErrorBoundary } from "~/features/members/member-actions";
import type { BlockedByMemberData } from "~/types";
import { pageMeta } from "~/utils/page-title";
import { regionNames } from "~/utils/intl";

/** A member's page: photos and profile. The actions (like, message, gift, block) come with likes. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const query = MemberQuery.safeParse({ id: params.id });
  // A member's visit starts now and brings the member along (one api call for the page); see callWithMember.
  const early = query.success ? callWithMember(request, context, "/api/member.php", MemberResponse, { id: query.data.id }) : null;
  early?.catch(() => undefined);
  const settings = await getSettings(request, context);
  if (!visitorMaySearch(settings, requestHasTrafficSource(request))) await requireUser(request, context);
  else await getUser(request, context);
  if (!query.success) throw data(null, { status: 404 });
  const result = (await early) ?? (await apiFor(request, context).get("/api/member.php", MemberResponse, { id: query.data.id }));
  // Refused to a session the api no longer knows: to the login page, as any members-only page.
  if (!result.ok && result.error.error === "authentication_required") await requireUser(request, context);
  if (!result.ok) {
    // docs/product.md §6: the blocked member gets the message of §8 (MemberErrorBoundary), not the general error page.
    const blocked: BlockedByMemberData | null = result.error.error === "blocked_by_member" ? { blocked_by_member: { name: String(result.error.params?.name ?? "") } } : null;
    throw data(blocked, { status: result.status === 400 ? 404 : result.status });
  }
  const { profile } = result.data;
  const regions = profile.region ? await getRegions(request, context, profile.country) : null;
  const regionName = regions?.find((r) => r.code === profile.region)?.name ?? null;
  const place = [profile.city, regionName, regionNames(locale).of(profile.country)].filter(Boolean).join(", ");
  const interests = new Map(settings.interests.map((i) => [i.id, i.key]));
  return {
    profile,
    place,
    interestKeys: profile.interests.flatMap((id) => interests.get(id) ?? []),
    cdn: settings.cdn_prefix,
    relation: result.data.relation,
    fictional: profile.fictional ? { icon: settings.fictional_icon, warning: settings.fictional_warning } : null,
    title: `${profile.name}, ${profile.age} | ${settings.name}`,
    description: metaDescription(locale, "member", { name: profile.name, age: profile.age, site: settings.name }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function MemberPage() {
  const { t } = useTranslation();
  const { profile, place, interestKeys, cdn, relation, fictional } = useLoaderData<typeof loader>();
  return (
    <article className="container max-w-3xl py-6" data-testid="member-page">
      <Link to="/members" className="text-sm text-gray-600 hover:text-gray-900">
        ← {t("memberPage.back")}
      </Link>
      <div className="mt-4 grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <MemberPhotos profile={profile} cdn={cdn} />
        <div>
          <h1 className="text-3xl font-bold text-gray-900">
            {profile.name}, <span className="font-normal">{profile.age}</span>
          </h1>
          {place ? <p className="mt-1 text-gray-600">{place}</p> : null}
          {fictional ? <FictionalLabel icon={fictional.icon} warning={fictional.warning} /> : null}
          <LikeButton profileId={profile.id} name={profile.name} relation={relation} />
          <MemberActions member={profile} relation={relation} />
          <MemberDetails details={profile.details} />
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
      <MatchModal profileId={profile.id} name={profile.name} photo={profile.photos[0] ? cdn + profile.photos[0].thumb_filename : null} relation={relation} />
    </article>
  );
}

/** The choice fields the site shows (hair colour, body type, ...), in the order of the profile form. */
function MemberDetails({ details }: { details: MemberProfile["details"] }) {
  const { t } = useTranslation("profile");
  const shown = profileChoiceFields.filter((field) => details[field]);
  if (shown.length === 0) return null;
  return (
    <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="member-details">
      {shown.map((field) => (
        <div key={field} className="contents">
          <dt className="text-gray-500">{t(`fields.${field}`)}</dt>
          <dd className="text-gray-900">{t(`choices.${field}.${details[field]}`)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ErrorBoundary() {
  return <MemberErrorBoundary />;
}
