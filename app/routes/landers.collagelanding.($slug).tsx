import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import { FictionalBadge, JoinLink, LanderEmpty, LanderSignup } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/** Lander "collagelanding": the members' photos as a tilted photo collage around the headline. */
export const handle = { layout: "lander" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "collagelanding", count: 9, slug: params.slug });
  return { ...landerPayload(data), more: data.t("collagelanding.more") };
}

export const meta = landerMeta;

/** Grid spans and tilts of the collage's tiles, by position. */
const tiles = [
  "col-span-2 row-span-2 -rotate-2",
  "rotate-3",
  "-rotate-1",
  "row-span-2 rotate-2",
  "-rotate-3",
  "col-span-2 rotate-1",
  "-rotate-2",
  "rotate-2",
  "-rotate-1",
];

export default function CollageLanding() {
  const { headline, lead, members, shared, fictional, more } = useLoaderData<typeof loader>();
  return (
    <div className="bg-[radial-gradient(circle_at_top_left,var(--color-primary-light),transparent_60%)]" data-testid="lander" data-design="collagelanding">
      <section className="container grid items-center gap-10 py-10 lg:grid-cols-[1fr_1.3fr] lg:py-16">
        <div>
          <h1 className="text-4xl font-extrabold leading-tight tracking-tight text-gray-900 sm:text-5xl">{headline}</h1>
          <p className="mt-4 max-w-lg text-lg text-gray-600">{lead}</p>
          <div className="mt-8">
            <JoinLink>{shared.cta}</JoinLink>
          </div>
        </div>
        {members.length === 0 ? (
          <LanderEmpty texts={shared} />
        ) : (
          <ul className="grid auto-rows-[7rem] grid-cols-3 gap-3 sm:auto-rows-[9rem] sm:grid-cols-4" aria-label={shared.membersLabel}>
            {members.map((member, i) => (
              <li
                key={member.id}
                className={`group relative overflow-hidden rounded-2xl border-4 border-white bg-gray-100 shadow-lg transition duration-300 hover:z-10 hover:rotate-0 hover:scale-105 motion-reduce:transition-none ${tiles[i] ?? ""}`}
                data-testid="lander-member"
              >
                {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} /> : null}
                <img src={member.photo} alt={member.name} width={320} height={320} loading={i < 4 ? "eager" : "lazy"} className="h-full w-full object-cover" />
                <span className="absolute inset-x-0 bottom-0 truncate bg-gradient-to-t from-black/70 to-transparent px-2 pb-1.5 pt-6 text-sm font-semibold text-white">
                  {member.name}, {member.age}
                </span>
              </li>
            ))}
            <li className="flex items-center justify-center rounded-2xl bg-gradient-to-br from-primary to-secondary p-3 text-center text-sm font-semibold text-white shadow-lg">
              <a href="#join" className="text-white hover:text-white">
                {more}
              </a>
            </li>
          </ul>
        )}
      </section>
      <LanderSignup texts={shared} />
    </div>
  );
}
