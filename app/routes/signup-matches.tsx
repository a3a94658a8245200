import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { cardView, MemberCard, useMemberCardGrid } from "~/features/members/member-card";
import { pageMeta } from "~/utils/page-title";
import { ButtonLink } from "~/components/ui/button";
import { endpoints } from "#contract/endpoints/index";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const [settings, result] = await Promise.all([getSettings(request, context), apiFor(request, context).call(endpoints.signupMatches)]);
  if (!result.ok) throw data(null, { status: result.status });
  return { title: fixedT(locale)("matches.title"), description: metaDescription(locale, "signupMatches"), members: result.data.results.map((member) => cardView(member, settings.cdn_prefix)) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function SignupMatches() {
  const { t } = useTranslation();
  const { members } = useLoaderData<typeof loader>();
  const grid = useMemberCardGrid();
  return (
    <section className="container py-8">
      <h1 className="text-2xl font-bold text-gray-900">{t("matches.title")}</h1>
      <p className="mt-1 text-gray-600">{t("matches.lead")}</p>
      {members.length === 0 ? (
        <p className="mt-8 rounded-xl bg-white p-8 text-center ring-1 ring-gray-100">{t("matches.empty")}</p>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid="signup-matches" onClick={grid.onClick}>
          {members.map((member) => (
            <li key={member.id}>
              <MemberCard member={member} grid={grid.card} />
            </li>
          ))}
        </ul>
      )}
      <ButtonLink to="/members" size="xl" className="mt-8">
        {t("matches.toSearch")}
      </ButtonLink>
    </section>
  );
}
