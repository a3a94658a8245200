import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import { FictionalBadge, JoinLink, LanderEmpty, LanderSignup, MemberCaption } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/** Lander "alonetonight": a night sky, the members as portraits under it, the signup beneath the moon. */
export const handle = { layout: "lander" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "alonetonight", count: 8, slug: params.slug });
  return { ...landerPayload(data), membersTitle: data.t("alonetonight.membersTitle") };
}

export const meta = landerMeta;

/** Stars at fixed places (no randomness: the server's and the browser's render must match). */
const stars = Array.from({ length: 28 }, (_, i) => ({ x: (i * 37) % 100, y: (i * 53) % 60, r: i % 3 === 0 ? 1.6 : 1, delay: (i % 7) * 0.6 }));

export default function AloneTonight() {
  const { headline, lead, members, shared, fictional, membersTitle } = useLoaderData<typeof loader>();
  return (
    <div className="relative overflow-hidden bg-gradient-to-b from-[#0b0724] via-secondary-dark to-[#2a0b3d] text-white" data-testid="lander" data-design="alonetonight">
      <svg className="pointer-events-none absolute inset-0 h-full w-full" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
        {stars.map((s, i) => (
          <circle key={i} cx={s.x} cy={s.y} r={s.r / 6} fill="white" className="lander-twinkle" style={{ animationDelay: `${s.delay}s` }} />
        ))}
      </svg>
      <section className="container relative pt-14 pb-8 text-center sm:pt-20">
        <div className="mx-auto h-20 w-20 rounded-full bg-amber-100 shadow-[0_0_60px_20px_rgba(253,230,138,0.35)]" aria-hidden="true">
          <div className="ml-5 h-20 w-20 rounded-full bg-[#1a0c3a]/80" />
        </div>
        <h1 className="mt-8 text-4xl font-extrabold tracking-tight sm:text-6xl">{headline}</h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-white/85">{lead}</p>
        <div className="mt-8">
          <JoinLink>{shared.cta}</JoinLink>
        </div>
      </section>
      <section aria-labelledby="tonight-members" className="container relative py-8">
        <h2 id="tonight-members" className="text-center text-sm font-semibold uppercase tracking-widest text-white/70">
          {membersTitle}
        </h2>
        {members.length === 0 ? (
          <div className="mt-6 text-gray-900">
            <LanderEmpty texts={shared} />
          </div>
        ) : (
          <ul className="mt-6 grid grid-cols-2 gap-6 sm:grid-cols-4">
            {members.map((member) => (
              <li key={member.id} className="flex flex-col items-center text-center" data-testid="lander-member">
                <div className="relative">
                  {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} className="absolute -top-2 left-1/2 -translate-x-1/2 whitespace-nowrap" /> : null}
                  <img src={member.thumb} alt={member.name} width={128} height={128} loading="lazy" className="h-28 w-28 rounded-full border-4 border-white/20 bg-white/10 object-cover shadow-lg shadow-black/40 sm:h-32 sm:w-32" />
                </div>
                <MemberCaption member={member} className="mt-3" />
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="relative">
        <LanderSignup texts={shared} tone="dark" />
      </div>
    </div>
  );
}
