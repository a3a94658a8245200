import type { MetaFunction } from "@remix-run/node";
import { pageMeta } from "~/utils/page-title";
import { SignupStepFrame } from "~/features/signup/signup-step-frame";
import { useLoaderData } from "@remix-run/react";
import { signupStepLoader, type SignupStepLoaderData } from "~/features/signup/signup-step.server";
import { PushStep } from "~/features/signup/push";

export const handle = { hideEntryWarning: true };

/** Signup step 1 (docs/product.md §2): push notifications, where the site has push keys; it happens in the browser. */
export const loader = signupStepLoader(1);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function SignupPushStep() {
  const { pushPublicKey, next } = useLoaderData<SignupStepLoaderData>();
  return <SignupStepFrame>{pushPublicKey ? <PushStep publicKey={pushPublicKey} next={next} /> : null}</SignupStepFrame>;
}
