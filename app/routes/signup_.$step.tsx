import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/utils/api.server";
import { getRegions } from "~/features/account/regions.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { nextSignupPath, signupSteps } from "~/features/signup/signup-steps";
import { FormAlert, InputField, SelectField, SubmitButton, TextareaField } from "~/components/ui/form-fields";
import { GenderField, InterestsField } from "~/features/account/profile-choices";
import { sexualities } from "~/features/account/profile-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { PushStep } from "~/features/signup/push";
import { PhotoUploadForm } from "~/features/account/photo-upload-form";
import { forwardPhotoUpload } from "~/features/account/photo-upload.server";
import { pageMeta } from "~/utils/page-title";
import { formConstraint } from "~/utils/form-constraint";
import { stepSchema } from "~/features/signup/step-forms";

export const handle = { hideEntryWarning: true };

function parseStep(value: string | undefined): 1 | 2 | 3 | 4 | null {
  const step = Number(value);
  return step === 1 || step === 2 || step === 3 || step === 4 ? step : null;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const step = parseStep(params.step);
  if (step === null) throw data(null, { status: 404 });
  const [user, settings] = await Promise.all([requireUser(request, context), getSettings(request, context)]);
  // A step the site does not offer (push without the site's push key) is no page.
  if (!signupSteps.some((s) => s.step === step && s.available(settings))) throw data(null, { status: 404 });
  const t = fixedT(locale);
  const regions = step === 3 ? await getRegions(request, context, user.profile.country) : null;
  const countryName = new Intl.DisplayNames([locale], { type: "region" });
  return {
    step,
    title: step === 1 ? t("steps.push.title") : step === 2 ? fixedT(locale, "photos")("signupStep.title") : t(step === 3 ? "steps.personal.title" : "steps.about.title"),
    description: metaDescription(locale, "signupStep"),
    pushPublicKey: settings.push_public_key,
    next: nextSignupPath(step, settings),
    countries: settings.countries.map((code) => ({ value: code, label: countryName.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label, locale)),
    regions: (regions ?? []).map((r) => ({ value: r.code, label: r.name })),
    interests: settings.interests,
    constraint: step === 3 || step === 4 ? formConstraint(stepSchema(step, t, settings.countries)) : {},
    profile: { gender: user.profile.gender, sexuality: user.profile.sexuality, country: user.profile.country, region: user.profile.region ?? "", city: user.profile.city ?? "" },
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const step = parseStep(params.step);
  // Step 1 (push) happens in the browser and posts to the api itself.
  if (step === null || step === 1) throw data(null, { status: 404 });
  await requireUser(request, context);
  const settings = await getSettings(request, context);
  const t = fixedT(locale);
  if (step === 2) {
    // Step 2, a photo: the upload goes to the api as on /profile/photos; a refusal shows as the form's error.
    const outcome = await forwardPhotoUpload(request, context, locale);
    if (outcome.ok) throw redirect(nextSignupPath(step, settings));
    return data<SubmissionResult<string[]>>({ status: "error", error: { "": [outcome.error] } }, { status: outcome.status });
  }
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
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function SignupStep() {
  const { t } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const { step, next } = loaderData;
  return (
    <section className="container flex justify-center py-10">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100">
        <p className="text-sm font-medium text-secondary" data-testid="signup-step">
          {t("steps.progress", { step, steps: 4 })}
        </p>
        <h1 className="mt-1 text-2xl font-bold text-gray-900">{loaderData.title}</h1>
        {step === 1 ? (
          loaderData.pushPublicKey ? <PushStep publicKey={loaderData.pushPublicKey} next={next} /> : null
        ) : step === 2 ? (
          <PhotoStep />
        ) : step === 3 ? (
          <PersonalStep />
        ) : (
          <AboutStep />
        )}
        <Link to={next} className="mt-4 block text-center text-sm text-gray-600 hover:text-gray-900" data-testid="skip-step">
          {t("steps.skip")}
        </Link>
      </div>
    </section>
  );
}

/** The step form's last refused answer, and its constraint attributes (the loader's). */
function useStepForm() {
  const lastResult = useActionData<typeof action>();
  const { constraint } = useLoaderData<typeof loader>();
  return { lastResult, constraint };
}

const aboutSchema = () => import("~/features/signup/step-forms").then((m) => m.aboutSchema);

function PersonalStep() {
  const { t } = useTranslation();
  const { countries, regions, profile } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // The list of countries is the site's: it does not change while the page is open.
  const codes = countries.map((c) => c.value).join(",");
  const personalSchema = useMemo(() => () => import("~/features/signup/step-forms").then((m) => (t: TFunction) => m.personalSchema(t, codes.split(","))), [codes]);
  const { form, fields, formProps, validation } = useValidatedForm({ id: "signup-step-3", schema: personalSchema, ...useStepForm(), t });
  return (
    <Form method="post" className="mt-6 space-y-4" {...formProps}>
      {validation}
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <GenderField field={fields.gender} label={t("steps.gender")} fallback={profile.gender} />
      <SelectField field={fields.sexuality} label={t("steps.sexuality")} fallback={profile.sexuality} options={sexualities.map((s) => ({ value: s, label: t(`profile.sexuality.${s}`) }))} />
      <SelectField field={fields.country} label={t("steps.country")} fallback={profile.country} options={countries} />
      {regions.length > 0 ? <SelectField field={fields.region} label={t("steps.region")} fallback={profile.region} options={regions} placeholder={t("steps.regionNone")} /> : null}
      <InputField field={fields.city} label={t("steps.city")} type="text" autoComplete="address-level2" />
      <SubmitButton busy={navigation.state !== "idle"} busyText={t("steps.saving")}>
        {t("steps.saveAndContinue")}
      </SubmitButton>
    </Form>
  );
}

function AboutStep() {
  const { t } = useTranslation();
  const { interests } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { form, fields, formProps, validation } = useValidatedForm({ id: "signup-step-4", schema: aboutSchema, ...useStepForm(), t });
  return (
    <Form method="post" className="mt-6 space-y-4" {...formProps}>
      {validation}
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <TextareaField field={fields.about_me} label={t("steps.aboutMe")} rows={5} />
      <InterestsField field={fields.interests} label={t("steps.interests")} interests={interests} />
      <SubmitButton busy={navigation.state !== "idle"} busyText={t("steps.saving")}>
        {t("steps.saveAndContinue")}
      </SubmitButton>
    </Form>
  );
}

/** Step 2: one photo, with the same upload form as /profile/photos (more photos and the main one are chosen there). */
function PhotoStep() {
  const { t } = useTranslation("photos");
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mt-4 space-y-4">
      <p className="text-sm text-gray-600">{t("signupStep.lead")}</p>
      <PhotoUploadForm error={lastResult?.error?.[""]?.join(" ") ?? null} />
    </div>
  );
}
