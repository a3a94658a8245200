import type { ReactNode } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SignupStepLoaderData } from "./signup-step.server";

/** A signup step's card: the progress, the step's title, its form, and "skip" to the next step. */
export function SignupStepFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { step, title, next } = useLoaderData<SignupStepLoaderData>();
  return (
    <section className="container flex justify-center py-10">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100">
        <p className="text-sm font-medium text-secondary" data-testid="signup-step">
          {t("steps.progress", { step, steps: 4 })}
        </p>
        <h1 className="mt-1 text-2xl font-bold text-gray-900">{title}</h1>
        {children}
        <Link to={next} className="mt-4 block text-center text-sm text-gray-600 hover:text-gray-900" data-testid="skip-step">
          {t("steps.skip")}
        </Link>
      </div>
    </section>
  );
}

/** A step form's last refused answer, and its constraint attributes (the loader's). */
export function useStepForm<Action>() {
  const lastResult = useActionData<Action>() as SubmissionResult<string[]> | undefined;
  const { constraint } = useLoaderData<SignupStepLoaderData>();
  return { lastResult, constraint };
}
