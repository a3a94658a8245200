import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { funnelNext, loadMemberFunnel } from "~/features/landers/member-funnel.server";
import { signupAction } from "~/features/signup/signup.server";
import { FunnelMemberFacts, FunnelPhoto, FunnelSignup, useFunnel } from "~/features/landers/member-funnel";
import { pageMeta } from "~/utils/page-title";

/** Member funnel: the member's photo large, the copy, and the signup form. */
export const handle = { layout: "lander" };

export const loader = (args: LoaderFunctionArgs) => loadMemberFunnel(args, "landing");
export const action = (args: ActionFunctionArgs) => signupAction(args, { next: funnelNext(args.params) });
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function MemberLanding() {
  const { member, cdn, texts } = useFunnel();
  return (
    <div className="bg-gradient-to-br from-primary/10 to-secondary/10" data-testid="funnel-design-landing">
      <div className="container grid gap-8 py-8 md:grid-cols-2 md:py-12">
        <div className="relative overflow-hidden rounded-3xl shadow-lg">
          <FunnelPhoto member={member} cdn={cdn} alt={texts.photoAlt} large className="aspect-[4/5] w-full" />
          <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 to-transparent p-5">
            <FunnelMemberFacts dark />
          </div>
        </div>
        <div className="flex flex-col justify-center gap-6">
          <div>
            <h1 className="text-3xl font-bold leading-tight text-gray-900 md:text-4xl">{texts.headline}</h1>
            <p className="mt-3 text-lg text-gray-700">{texts.lead}</p>
          </div>
          <FunnelSignup />
        </div>
      </div>
    </div>
  );
}
