import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { funnelNext, loadMemberFunnel } from "~/features/landers/member-funnel.server";
import { signupAction } from "~/features/signup/signup.server";
import { FunnelMemberFacts, FunnelPhoto, FunnelSignup, useFunnel } from "~/features/landers/member-funnel";
import { pageMeta } from "~/utils/page-title";

/** Member funnel, the plainest design: the member beside the signup form. */
export const handle = { layout: "lander" };

export const loader = (args: LoaderFunctionArgs) => loadMemberFunnel(args, "signup");
export const action = (args: ActionFunctionArgs) => signupAction(args, { next: funnelNext(args.params) });
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function MemberSignup() {
  const { member, cdn, texts } = useFunnel();
  return (
    <div className="container max-w-3xl py-8" data-testid="funnel-design-signup">
      <h1 className="text-2xl font-bold text-gray-900 md:text-3xl">{texts.signupTitle}</h1>
      <div className="mt-6 grid gap-6 md:grid-cols-[14rem_1fr]">
        <div className="flex items-center gap-4 md:block">
          <FunnelPhoto member={member} cdn={cdn} alt={texts.photoAlt} className="h-28 w-28 rounded-full md:h-56 md:w-56 md:rounded-2xl" />
          <div className="md:mt-4">
            <FunnelMemberFacts />
          </div>
        </div>
        <FunnelSignup />
      </div>
    </div>
  );
}
