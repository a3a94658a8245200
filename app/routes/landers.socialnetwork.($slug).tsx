import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import { ChatIcon, HeartIcon } from "~/components/ui/icons";
import { FictionalBadge, JoinLink, LanderEmpty, LanderSignup } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/**
 * Lander "socialnetwork": the members as a social feed (their profile photos as posts); reacting
 * leads to the signup, which sits beside the feed on wide screens and after it on phones.
 */
export const handle = { layout: "lander" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "socialnetwork", count: 8, slug: params.slug });
  const t = data.t;
  return {
    ...landerPayload(data),
    texts: {
      feedLabel: t("socialnetwork.feedLabel"),
      posts: data.members.map((m) => t("socialnetwork.post", { name: m.name })),
      like: t("socialnetwork.like"),
      message: t("socialnetwork.message"),
      reactHint: t("socialnetwork.reactHint"),
    },
  };
}

export const meta = landerMeta;

export default function SocialNetwork() {
  const { headline, lead, members, shared, fictional, texts } = useLoaderData<typeof loader>();
  return (
    <div className="bg-gray-100" data-testid="lander" data-design="socialnetwork">
      <section className="border-b border-gray-200 bg-white">
        <div className="container py-8">
          <h1 className="text-3xl font-extrabold tracking-tight text-gray-900">{headline}</h1>
          <p className="mt-2 max-w-2xl text-gray-600">{lead}</p>
          {members.length > 0 ? (
            <ul className="mt-6 flex gap-4 overflow-x-auto pb-2" aria-hidden="true">
              {members.map((member) => (
                <li key={member.id} className="w-16 shrink-0 text-center">
                  <span className="block rounded-full bg-gradient-to-tr from-amber-400 via-primary to-secondary p-0.5">
                    <img src={member.thumb} alt="" width={60} height={60} className="h-15 w-15 rounded-full border-2 border-white bg-gray-100 object-cover" />
                  </span>
                  <span className="mt-1 block truncate text-xs text-gray-700">{member.name}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>
      <div className="container grid gap-6 py-8 lg:grid-cols-[minmax(0,36rem)_1fr] lg:items-start">
        <section aria-label={texts.feedLabel}>
          {members.length === 0 ? (
            <LanderEmpty texts={shared} />
          ) : (
            <ul className="space-y-6">
              {members.map((member, i) => (
                <li key={member.id}>
                  <article className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-gray-200" data-testid="lander-member">
                    <header className="flex items-center gap-3 p-4">
                      <img src={member.thumb} alt="" width={40} height={40} className="h-10 w-10 rounded-full bg-gray-100 object-cover" />
                      <div className="min-w-0 flex-1">
                        <p className="truncate font-semibold text-gray-900">
                          {member.name}, {member.age}
                        </p>
                        {member.city ? <p className="truncate text-sm text-gray-500">{member.city}</p> : null}
                      </div>
                      {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} className="relative ring-1 ring-sky-200" /> : null}
                    </header>
                    <p className="px-4 pb-3 text-gray-800">{texts.posts[i]}</p>
                    <img src={member.photo} alt={member.name} width={576} height={576} loading={i < 2 ? "eager" : "lazy"} className="aspect-square w-full bg-gray-100 object-cover" />
                    <footer className="flex items-center gap-2 border-t border-gray-100 px-2 py-1.5">
                      <a href="#join" className="flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 hover:text-primary" title={texts.reactHint}>
                        <HeartIcon /> {texts.like}
                      </a>
                      <a href="#join" className="flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 hover:text-primary" title={texts.reactHint}>
                        <ChatIcon /> {texts.message}
                      </a>
                    </footer>
                  </article>
                </li>
              ))}
            </ul>
          )}
        </section>
        <aside className="lg:sticky lg:top-4">
          <p className="hidden rounded-2xl bg-gradient-to-br from-primary to-secondary p-5 text-white shadow-sm lg:block">
            {texts.reactHint} <JoinLink className="mt-3 block w-fit rounded-full bg-white px-5 py-2 font-semibold text-primary hover:text-primary-dark">{shared.cta}</JoinLink>
          </p>
          <LanderSignup texts={shared} />
        </aside>
      </div>
    </div>
  );
}
