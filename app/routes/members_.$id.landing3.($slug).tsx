import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { funnelNext, loadMemberFunnel } from "~/features/landers/member-funnel.server";
import { signupAction } from "~/features/signup/signup.server";
import { FunnelMemberFacts, FunnelPhoto, FunnelSignup, useFunnel } from "~/features/landers/member-funnel";
import { pageMeta } from "~/utils/page-title";

/** Member funnel: the chat with the member as it will look, opened by the signup beside it. */
export const handle = { layout: "lander" };

export const loader = (args: LoaderFunctionArgs) => loadMemberFunnel(args, "landing3");
export const action = (args: ActionFunctionArgs) => signupAction(args, { next: funnelNext(args.params) });
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function MemberLanding3() {
  const { member, cdn, texts } = useFunnel();
  return (
    <div className="container grid gap-6 py-8 md:grid-cols-2" data-testid="funnel-design-landing3">
      <div>
        <h1 className="text-2xl font-bold text-gray-900 md:text-3xl">{texts.headline}</h1>
        <p className="mt-2 text-gray-700">{texts.lead}</p>
        <div className="mt-6 flex min-h-80 flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-gray-100">
          <div className="flex items-center gap-3 border-b border-gray-100 p-4">
            <FunnelPhoto member={member} cdn={cdn} alt={texts.photoAlt} className="h-14 w-14 shrink-0 rounded-full" />
            <FunnelMemberFacts />
          </div>
          <p className="flex flex-1 items-center justify-center p-6 text-center text-gray-600">{texts.composerHint}</p>
          <a href="#join" className="m-3 block rounded-full bg-gray-100 px-4 py-2.5 text-gray-600 ring-1 ring-gray-200 hover:ring-primary" data-testid="funnel-composer">
            {texts.composer}
          </a>
        </div>
      </div>
      <FunnelSignup />
    </div>
  );
}
