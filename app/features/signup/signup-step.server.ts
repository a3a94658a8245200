import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/utils/api.server";
import { getRegions } from "~/features/account/regions.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { nextSignupPath, signupSteps } from "~/features/signup/signup-steps";
import { forwardPhotoUpload } from "~/features/account/photo-upload.server";
import { formConstraint } from "~/utils/form-constraint";
import { stepSchema } from "~/features/signup/step-forms";
import { countryOptions } from "~/utils/intl";

/*
 * The signup steps after step 0 (docs/product.md §2): /signup/1 push, /signup/2 a photo, /signup/3 personal info,
 * /signup/4 about me; each a route of its own (app/routes/signup_.1.tsx to signup_.4.tsx), so a step's page loads only its own code.
 */
export type SignupStepNumber = 1 | 2 | 3 | 4;

/** What every step's page gets: its title, where "skip" and "save" go, and what its form needs. */
export function signupStepLoader(step: SignupStepNumber) {
  return async function loader({ request, context }: LoaderFunctionArgs) {
    const locale = urlLocale(request);
    const [user, settings] = await Promise.all([requireUser(request, context), getSettings(request, context)]);
    // A step the site does not offer (push without the site's push key) is no page.
    if (!signupSteps.some((s) => s.step === step && s.available(settings))) throw data(null, { status: 404 });
    const t = fixedT(locale);
    const regions = step === 3 ? await getRegions(request, context, user.profile.country) : null;
    return {
      step,
      title: step === 1 ? t("steps.push.title") : step === 2 ? fixedT(locale, "photos")("signupStep.title") : t(step === 3 ? "steps.personal.title" : "steps.about.title"),
      description: metaDescription(locale, "signupStep"),
      pushPublicKey: settings.push_public_key,
      next: nextSignupPath(step, settings),
      countries: countryOptions(locale, settings.countries),
      regions: (regions ?? []).map((r) => ({ value: r.code, label: r.name })),
      interests: settings.interests,
      constraint: step === 3 || step === 4 ? formConstraint(stepSchema(step, t, settings.countries)) : {},
      profile: { gender: user.profile.gender, sexuality: user.profile.sexuality, country: user.profile.country, region: user.profile.region ?? "", city: user.profile.city ?? "" },
    };
  };
}

export type SignupStepLoaderData = Awaited<ReturnType<ReturnType<typeof signupStepLoader>>>;

/** Step 2, a photo: the upload goes to the api as on /profile/photos; a refusal shows as the form's error. */
export async function photoStepAction({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const settings = await getSettings(request, context);
  const outcome = await forwardPhotoUpload(request, context, locale);
  if (outcome.ok) throw redirect(nextSignupPath(2, settings));
  return data<SubmissionResult<string[]>>({ status: "error", error: { "": [outcome.error] } }, { status: outcome.status });
}

/** Steps 3 and 4: the profile fields, saved with PUT /api/profile.php. */
export function profileStepAction(step: 3 | 4) {
  return async function action({ request, context }: ActionFunctionArgs) {
    const locale = urlLocale(request);
    await requireUser(request, context);
    const settings = await getSettings(request, context);
    const t = fixedT(locale);
    const submission = parseWithZod(await request.formData(), { schema: stepSchema(step, t, settings.countries) });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    const values = submission.value;
    const update = "gender" in values ? { ...values, region: values.region || null, city: values.city || null } : { about_me: values.about_me ?? "", interests: values.interests ?? [] };
    const result = await apiFor(request, context).put("/api/profile.php", UserResponse, update);
    if (!result.ok) {
      const fields = result.error.error === "validation_failed" ? result.error.fields : undefined;
      return data(submission.reply(fields ? { fieldErrors: fields } : { formErrors: [apiErrorMessage(t, result.error)] }), { status: result.status });
    }
    throw redirect(nextSignupPath(step, settings));
  };
}
