import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import { ChatIcon, HeartIcon } from "~/components/ui/icons";
import { FictionalBadge, JoinLink, LanderEmpty, LanderSignup, MemberCaption } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";
import { buttonClass } from "~/components/ui/button";

/** Lander "iconslanding": what the site offers as four icons, a row of members, then the signup. */
export const handle = { layout: "lander" };

const features = ["free", "discreet", "chat", "nearby"] as const;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "iconslanding", count: 6, slug: params.slug });
  const t = data.t;
  return {
    ...landerPayload(data),
    features: features.map((key) => ({ key, title: t(`iconslanding.features.${key}.title`), body: t(`iconslanding.features.${key}.body`, { site: data.site }) })),
    membersTitle: t("iconslanding.membersTitle"),
  };
}

export const meta = landerMeta;

const icons: Record<(typeof features)[number], ReactNode> = {
  free: <HeartIcon className="h-7 w-7" />,
  discreet: (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="h-7 w-7">
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  ),
  chat: <ChatIcon className="h-7 w-7" />,
  nearby: (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="h-7 w-7">
      <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21Z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </svg>
  ),
};

export default function IconsLanding() {
  const data = useLoaderData<typeof loader>();
  const { headline, lead, members, shared, fictional } = data;
  return (
    <div data-testid="lander" data-design="iconslanding">
      <section className="bg-gradient-to-br from-primary to-secondary text-white">
        <div className="container py-12 text-center sm:py-16">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-5xl">{headline}</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-white/90">{lead}</p>
        </div>
      </section>
      <section className="container -mt-8">
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {data.features.map((feature) => (
            <li key={feature.key} className="rounded-2xl bg-white p-6 shadow-md ring-1 ring-gray-100">
              <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-primary-light text-primary">{icons[feature.key]}</span>
              <h2 className="mt-4 text-lg font-bold text-gray-900">{feature.title}</h2>
              <p className="mt-1 text-gray-600">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="container py-10" aria-labelledby="icons-members">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="icons-members" className="text-xl font-bold text-gray-900">
            {data.membersTitle}
          </h2>
          <JoinLink className={buttonClass({ variant: "secondary", size: "md" })}>
            {shared.cta}
          </JoinLink>
        </div>
        {members.length === 0 ? (
          <div className="mt-6">
            <LanderEmpty texts={shared} />
          </div>
        ) : (
          <ul className="mt-6 grid grid-cols-3 gap-4 sm:grid-cols-6">
            {members.map((member) => (
              <li key={member.id} className="relative text-center" data-testid="lander-member">
                {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} className="absolute left-1/2 top-0 -translate-x-1/2 whitespace-nowrap" /> : null}
                <img src={member.thumb} alt={member.name} width={120} height={120} loading="lazy" className="mx-auto aspect-square w-full max-w-[7.5rem] rounded-2xl bg-gray-100 object-cover shadow-sm" />
                <MemberCaption member={member} className="mt-2 block text-gray-900" />
              </li>
            ))}
          </ul>
        )}
      </section>
      <LanderSignup texts={shared} />
    </div>
  );
}
