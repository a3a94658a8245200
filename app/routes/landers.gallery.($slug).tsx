import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import { FictionalBadge, JoinLink, LanderEmpty, LanderSignup, MemberCaption } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/** Lander "gallery": an even grid of member photos; each tile leads to the signup. */
export const handle = { layout: "lander" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "gallery", count: 12, slug: params.slug });
  return { ...landerPayload(data), viewProfile: data.t("gallery.viewProfile") };
}

export const meta = landerMeta;

export default function Gallery() {
  const { headline, lead, members, shared, fictional, viewProfile } = useLoaderData<typeof loader>();
  return (
    <div data-testid="lander" data-design="gallery">
      <section className="border-b border-gray-100 bg-white">
        <div className="container flex flex-col items-start gap-6 py-10 md:flex-row md:items-end md:justify-between">
          <div>
            <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 sm:text-4xl">{headline}</h1>
            <p className="mt-3 max-w-2xl text-lg text-gray-600">{lead}</p>
          </div>
          <JoinLink>{shared.cta}</JoinLink>
        </div>
      </section>
      <section className="container py-8" aria-label={shared.membersLabel}>
        {members.length === 0 ? (
          <LanderEmpty texts={shared} />
        ) : (
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
            {members.map((member, i) => (
              <li key={member.id} data-testid="lander-member">
                <a href="#join" className="group relative block overflow-hidden rounded-2xl bg-white text-gray-900 shadow-sm ring-1 ring-gray-100 hover:text-gray-900 hover:ring-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary">
                  {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} /> : null}
                  <span className="block overflow-hidden">
                    <img src={member.photo} alt="" width={300} height={400} loading={i < 4 ? "eager" : "lazy"} className="aspect-[3/4] w-full bg-gray-100 object-cover transition duration-500 group-hover:scale-105 motion-reduce:transition-none" />
                  </span>
                  <span className="flex items-end justify-between gap-2 p-3">
                    <MemberCaption member={member} className="min-w-0" />
                    <span className="shrink-0 rounded-full bg-primary-light px-2.5 py-1 text-xs font-semibold text-primary-dark">{viewProfile}</span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <LanderSignup texts={shared} />
    </div>
  );
}
