import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import { FictionalBadge, LanderEmpty, LanderSignup } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/**
 * Lander "video": a phone-sized "story" player looping through member photos (a slow zoom, progress
 * bars, a cut to the next), all CSS animation of the site's own images; with reduced motion it holds still.
 * The signup sits beside it.
 */
export const handle = { layout: "lander" };

/** Six clips of 3 s (the keyframes in tailwind.css are made for that); fewer members repeat. */
const clipCount = 6;
const clipSeconds = 3;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "video", count: 6, slug: params.slug });
  return { ...landerPayload(data), playerLabel: data.t("video.playerLabel", { site: data.site }), live: data.t("video.badge") };
}

export const meta = landerMeta;

export default function VideoLanding() {
  const { headline, lead, members, shared, fictional, playerLabel, live } = useLoaderData<typeof loader>();
  const clips = members.length === 0 ? [] : Array.from({ length: clipCount }, (_, i) => ({ member: members[i % members.length]!, repeat: i >= members.length }));
  const timing = (i: number) => ({ animationDelay: `${i * clipSeconds}s` });
  return (
    <div className="bg-gradient-to-br from-gray-950 via-secondary-dark to-primary-dark text-white" data-testid="lander" data-design="video">
      <div className="container grid items-start gap-10 py-10 lg:grid-cols-2 lg:py-14">
        <section className="flex flex-col items-center lg:items-start">
          <h1 className="text-center text-3xl font-extrabold tracking-tight sm:text-5xl lg:text-left">{headline}</h1>
          <p className="mt-3 max-w-lg text-center text-lg text-white/85 lg:text-left">{lead}</p>
          {members.length === 0 ? (
            <div className="mt-8 w-full text-gray-900">
              <LanderEmpty texts={shared} />
            </div>
          ) : (
            <figure className="relative mt-8 aspect-[9/16] w-full max-w-[20rem] overflow-hidden rounded-[2rem] border-[6px] border-gray-900 bg-black shadow-2xl shadow-black/50" aria-label={playerLabel}>
              <ul>
                {clips.map(({ member, repeat }, i) => (
                  <li
                    key={i}
                    className="lander-clip absolute inset-0"
                    style={timing(i)}
                    aria-hidden={repeat ? true : undefined}
                    data-first={i === 0 ? "true" : undefined}
                    data-testid={repeat ? undefined : "lander-member"}
                  >
                    <img src={member.photo} alt={repeat ? "" : member.name} width={320} height={568} loading={i === 0 ? "eager" : "lazy"} className="lander-clip-zoom h-full w-full object-cover" style={timing(i)} />
                    <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/85 to-transparent p-4 pt-16">
                      <p className="text-xl font-bold">
                        {member.name}, <span className="font-normal">{member.age}</span>
                      </p>
                      {member.city ? <p className="text-sm text-white/80">{member.city}</p> : null}
                    </div>
                    {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} className="absolute left-3 top-8" /> : null}
                  </li>
                ))}
              </ul>
              <div className="absolute inset-x-3 top-3 flex gap-1" aria-hidden="true">
                {clips.map((_, i) => (
                  <span key={i} className="h-1 flex-1 overflow-hidden rounded-full bg-white/30">
                    <span className="lander-clip-bar block h-full bg-white" style={timing(i)} />
                  </span>
                ))}
              </div>
              <span className="absolute right-3 top-7 flex items-center gap-1 rounded-full bg-primary px-2 py-0.5 text-xs font-bold uppercase tracking-wide">
                <span className="h-1.5 w-1.5 rounded-full bg-white" aria-hidden="true" />
                {live}
              </span>
            </figure>
          )}
        </section>
        <LanderSignup texts={shared} tone="dark" />
      </div>
    </div>
  );
}
