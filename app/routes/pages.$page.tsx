import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { isStaticPage, legalValues } from "~/utils/legal";
import { pageMeta } from "~/utils/page-title";
import { moderationReasons } from "#contract/moderation-reasons";
import type { Locale } from "#contract/locales";
import { dateTimeFormat } from "~/utils/intl";

const PageContent = z.object({
  title: z.string(),
  intro: z.string(),
  sections: z.array(z.object({ heading: z.string(), paragraphs: z.array(z.string()) })),
});

/** The text is rendered on the server from the `pages` namespace: it never ships as translations to the browser. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!isStaticPage(params.page)) throw data(null, { status: 404 });
  const locale = urlLocale(request);
  const settings = await getSettings(request, context);
  const t = fixedT(locale, "pages");
  const content = PageContent.parse(t(params.page, { returnObjects: true, ...legalValues(settings, locale) }));
  // The page's own introduction is its meta description.
  return { page: params.page, ...content, description: content.intro, suspension: params.page === "ban" ? suspensionOf(new URL(request.url), locale) : null };
}

/**
 * docs/staff.md: login sends a suspended or banned member here with the reason and the end (?reason=&until=, which the
 * api answered); the page says both in the member's language. Made-up values show nothing.
 */
function suspensionOf(url: URL, locale: Locale): { lines: string[] } | null {
  const reason = url.searchParams.get("reason");
  if (!reason || !(moderationReasons as readonly string[]).includes(reason)) return null;
  const until = url.searchParams.get("until") ?? "";
  const end = until ? new Date(until) : null;
  if (end && Number.isNaN(end.getTime())) return null;
  const t = fixedT(locale, "moderation");
  const date = end ? dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(end) : null;
  return { lines: [date ? t("ban.suspended", { date }) : t("ban.banned"), t("ban.reason", { reason: t(`reasons.${reason}`) }), t("ban.contact")] };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaticPage() {
  const { page, title, intro, sections, suspension } = useLoaderData<typeof loader>();
  return (
    <article className="container max-w-3xl py-10" data-page={page}>
      <h1 className="text-3xl font-bold text-gray-900">{title}</h1>
      {suspension ? (
        <div role="status" className="mt-4 space-y-1 rounded-xl bg-red-50 p-4 text-red-900 ring-1 ring-red-200" data-testid="suspension">
          {suspension.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      <p className="mt-4 text-lg text-gray-700">{intro}</p>
      {sections.map((section) => (
        <section key={section.heading} className="mt-8">
          <h2 className="text-xl font-semibold text-gray-900">{section.heading}</h2>
          {section.paragraphs.map((paragraph, i) => (
            <p key={i} className="mt-3 leading-relaxed text-gray-700">
              {paragraph}
            </p>
          ))}
        </section>
      ))}
    </article>
  );
}
