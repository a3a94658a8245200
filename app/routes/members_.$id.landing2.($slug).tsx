import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { funnelNext, loadMemberFunnel } from "~/features/landers/member-funnel.server";
import { signupAction } from "~/features/signup/signup.server";
import { FunnelMemberFacts, FunnelPhoto, FunnelSignup, useFunnel } from "~/features/landers/member-funnel";
import { pageMeta } from "~/utils/page-title";

/** Member funnel: the member, the signup form, and more members of the site below. */
export const handle = { layout: "lander" };

export const loader = (args: LoaderFunctionArgs) => loadMemberFunnel(args, "landing2");
export const action = (args: ActionFunctionArgs) => signupAction(args, { next: funnelNext(args.params) });
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function MemberLanding2() {
  const { member, others, cdn, texts } = useFunnel();
  return (
    <div data-testid="funnel-design-landing2">
      <section className="bg-gradient-to-r from-primary to-secondary text-white">
        <div className="container py-8 md:py-10">
          <h1 className="max-w-2xl text-3xl font-bold leading-tight md:text-4xl">{texts.headline}</h1>
          <p className="mt-2 max-w-xl text-white/90">{texts.lead}</p>
        </div>
      </section>
      <div className="container grid gap-6 py-8 md:grid-cols-[18rem_1fr]">
        <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-gray-100">
          <FunnelPhoto member={member} cdn={cdn} alt={texts.photoAlt} large className="aspect-square w-full" />
          <div className="p-4">
            <FunnelMemberFacts />
          </div>
        </div>
        <FunnelSignup />
      </div>
      {others.length > 0 ? (
        <section className="container pb-10" aria-labelledby="funnel-others">
          <h2 id="funnel-others" className="text-lg font-semibold text-gray-900">
            {texts.othersTitle}
          </h2>
          <ul className="mt-3 grid grid-cols-3 gap-3 md:grid-cols-6" data-testid="funnel-others">
            {others.map((other) => (
              <li key={other.id}>
                <a href="#join" className="block overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-gray-100 hover:ring-primary">
                  <FunnelPhoto member={other} cdn={cdn} alt={other.name} className="aspect-square w-full" />
                  <span className="block truncate px-2 py-1.5 text-sm font-medium text-gray-900">
                    {other.name}, {other.age}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
