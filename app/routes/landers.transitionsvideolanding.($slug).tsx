import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import { FictionalBadge, JoinLink, LanderEmpty, LanderSignup, MemberCaption } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/**
 * Lander "transitionsvideolanding": a full-width show of member photos that cross-fade and drift
 * one into the next (CSS animation only, staggered per slide); with reduced motion the first photo stays.
 */
export const handle = { layout: "lander" };

/** The show always has six slides of 4 s (the keyframes in tailwind.css are made for that); fewer members repeat. */
const slideCount = 6;
const slideSeconds = 4;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "transitionsvideolanding", count: 6, slug: params.slug });
  return { ...landerPayload(data), showLabel: data.t("transitionsvideolanding.showLabel", { site: data.site }) };
}

export const meta = landerMeta;

export default function TransitionsLanding() {
  const { headline, lead, members, shared, fictional, showLabel } = useLoaderData<typeof loader>();
  const slides = members.length === 0 ? [] : Array.from({ length: slideCount }, (_, i) => ({ member: members[i % members.length]!, repeat: i >= members.length }));
  return (
    <div data-testid="lander" data-design="transitionsvideolanding">
      <section className="relative isolate overflow-hidden bg-gray-900 text-white">
        {members.length > 0 ? (
          <ul aria-label={showLabel} className="absolute inset-0 -z-10">
            {slides.map(({ member, repeat }, i) => (
              <li
                key={i}
                className="lander-slide absolute inset-0"
                style={{ animationDelay: `${i * slideSeconds}s` }}
                aria-hidden={repeat ? true : undefined}
                data-first={i === 0 ? "true" : undefined}
                data-testid={repeat ? undefined : "lander-member"}
              >
                <img src={member.photo} alt={repeat ? "" : member.name} width={1200} height={800} loading={i === 0 ? "eager" : "lazy"} className="h-full w-full object-cover" />
                <div className="absolute bottom-6 right-6 flex items-center gap-2 rounded-full bg-black/50 px-4 py-2 text-sm backdrop-blur">
                  {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} className="relative" /> : null}
                  <MemberCaption member={{ ...member, city: null }} />
                  {member.city ? <span className="text-white/80">· {member.city}</span> : null}
                </div>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="absolute inset-0 -z-10 bg-gradient-to-r from-black/80 via-black/50 to-black/10" aria-hidden="true" />
        <div className="container flex min-h-[34rem] flex-col justify-center py-16">
          <h1 className="max-w-2xl text-4xl font-extrabold leading-tight tracking-tight sm:text-6xl">{headline}</h1>
          <p className="mt-4 max-w-xl text-lg text-white/90">{lead}</p>
          <div className="mt-8">
            <JoinLink>{shared.cta}</JoinLink>
          </div>
        </div>
      </section>
      {members.length === 0 ? (
        <div className="container pt-10">
          <LanderEmpty texts={shared} />
        </div>
      ) : null}
      <LanderSignup texts={shared} />
    </div>
  );
}
