import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RegionsResponse } from "#contract/settings";
import { UserResponse } from "#contract/user";
import { apiFor } from "~/api.server";
import { apiErrorMessage } from "~/api-errors";
import { fixedT } from "~/i18n.server";
import { urlLocale } from "~/locale.server";
import { localizePath } from "~/paths";
import { getSettings, requireUser } from "~/session.server";
import { nextSignupPath, signupSteps } from "~/signup-steps";
import { FormAlert, InputField, SelectField, SubmitButton, TextareaField } from "~/components/form-fields";
import { useValidatedForm } from "~/components/validated-form";

export const handle = { hideEntryWarning: true };

const sexualities = ["hetero", "gay", "lesbian", "bi"] as const;

/** Step 3, personal info, and step 4, about me: every field optional, the step itself skippable. */
function stepSchema(step: number, t: TFunction, countries: string[]) {
  if (step === 3) {
    return z.object({
      gender: z.enum(["male", "female"], { error: t("steps.genderRequired") }),
      sexuality: z.enum(sexualities, { error: t("steps.sexualityRequired") }),
      country: z.string({ error: t("steps.countryRequired") }).refine((c) => countries.includes(c), t("steps.countryRequired")),
      region: z.string().max(100).optional(),
      city: z.string().trim().max(100, t("steps.cityTooLong")).optional(),
    });
  }
  return z.object({
    about_me: z.string().trim().max(2000, t("steps.aboutTooLong")).optional(),
    interests: z.array(z.coerce.number().int()).max(50).optional(),
  });
}

function parseStep(value: string | undefined): 3 | 4 | null {
  const step = Number(value);
  return step === 3 || step === 4 ? step : null;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const step = parseStep(params.step);
  if (step === null || !signupSteps.some((s) => s.step === step)) throw data(null, { status: 404 });
  const [user, settings] = await Promise.all([requireUser(request, context, locale), getSettings(request, context)]);
  const t = fixedT(locale);
  const regions = step === 3 ? await apiFor(request, context).get("/api/regions.php", RegionsResponse, { country: user.profile.country }) : null;
  const countryName = new Intl.DisplayNames([locale], { type: "region" });
  return {
    step,
    title: t(step === 3 ? "steps.personal.title" : "steps.about.title"),
    next: localizePath(locale, nextSignupPath(step, settings)),
    countries: settings.countries.map((code) => ({ value: code, label: countryName.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label, locale)),
    regions: regions?.ok ? regions.data.regions.map((r) => ({ value: r.code, label: r.name })) : [],
    interests: settings.interests,
    profile: { gender: user.profile.gender, sexuality: user.profile.sexuality, country: user.profile.country, region: user.profile.region ?? "", city: user.profile.city ?? "" },
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const step = parseStep(params.step);
  if (step === null) throw data(null, { status: 404 });
  await requireUser(request, context, locale);
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
  throw redirect(localizePath(locale, nextSignupPath(step, settings)));
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

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
        {step === 3 ? <PersonalStep /> : <AboutStep />}
        <Link to={next} className="mt-4 block text-center text-sm text-gray-600 hover:text-gray-900" data-testid="skip-step">
          {t("steps.skip")}
        </Link>
      </div>
    </section>
  );
}

function useStepForm(step: 3 | 4, countries: string[]) {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const schema = stepSchema(step, t, countries);
  return useValidatedForm(`signup-step-${step}`, schema, lastResult);
}

function PersonalStep() {
  const { t } = useTranslation();
  const { countries, regions, profile } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form, fields] = useStepForm(3, countries.map((c) => c.value));
  return (
    <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <fieldset>
        <legend className="block text-sm font-medium text-gray-700">{t("steps.gender")}</legend>
        <div className="mt-1 flex gap-4">
          {(["female", "male"] as const).map((gender) => (
            <label key={gender} className="flex items-center gap-2">
              <input type="radio" name={fields.gender.name} value={gender} defaultChecked={(fields.gender.initialValue ?? profile.gender) === gender} />
              {t(`profile.gender.${gender}`)}
            </label>
          ))}
        </div>
      </fieldset>
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
  const [form, fields] = useStepForm(4, []);
  const chosen = new Set((fields.interests.initialValue as string[] | undefined) ?? []);
  return (
    <Form method="post" className="mt-6 space-y-4" {...getFormProps(form)}>
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <TextareaField field={fields.about_me} label={t("steps.aboutMe")} rows={5} />
      <fieldset>
        <legend className="block text-sm font-medium text-gray-700">{t("steps.interests")}</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {interests.map((interest) => (
            <label key={interest.id} className="flex cursor-pointer items-center gap-1 rounded-full bg-gray-100 px-3 py-1 text-sm has-[:checked]:bg-primary-light has-[:checked]:text-primary-dark">
              <input type="checkbox" name={fields.interests.name} value={interest.id} defaultChecked={chosen.has(String(interest.id))} className="sr-only" />
              {t(`interests.${interest.key}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <SubmitButton busy={navigation.state !== "idle"} busyText={t("steps.saving")}>
        {t("steps.saveAndContinue")}
      </SubmitButton>
    </Form>
  );
}
