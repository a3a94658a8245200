import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { isStaticPage, legalValues } from "~/utils/legal";
import { pageMeta } from "~/utils/page-title";

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
  // The page's own introduction is its meta description (issue 29).
  return { page: params.page, ...content, description: content.intro };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaticPage() {
  const { page, title, intro, sections } = useLoaderData<typeof loader>();
  return (
    <article className="container max-w-3xl py-10" data-page={page}>
      <h1 className="text-3xl font-bold text-gray-900">{title}</h1>
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
