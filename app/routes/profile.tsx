import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { apiFieldErrors, profileChoiceFields, profileUpdateOf, sexualities, visibleOptionalFields } from "~/features/account/profile-fields";
import { profileFormSchema } from "~/features/account/profile-form";
import { getSettings, requireUser } from "~/utils/session.server";
import { Notice } from "~/features/account/account-ui";
import { FormAlert, InputField, SelectField, SubmitButton, TextareaField } from "~/components/ui/form-fields";
import { GenderField, InterestsField, ProfileChoiceSelect } from "~/features/account/profile-choices";
import { InvisibleModeForm } from "~/features/account/profile-invisible";
import { LocationFields } from "~/features/account/profile-location";
import { Panel } from "~/components/ui/panel";
import { DataExportPanel } from "~/features/account/data-export-panel";
import { pageMeta } from "~/utils/page-title";
import { useFormMountKey } from "~/utils/form-key";
import { formConstraint } from "~/utils/form-constraint";
import { useValidatedForm } from "~/components/ui/validated-form";
import { inputProps } from "~/components/ui/form-view";
import { getRegions } from "~/features/account/regions.server";
import { countryOptions } from "~/utils/intl";
import { endpoints } from "#contract/endpoints/index";

/** What the page confirms after a redirect (?done=). */
const doneStates = ["saved", "invisible-on", "invisible-off"] as const;
type Done = (typeof doneStates)[number];

type Option = { value: string; label: string };
type RegionList = { country: string; options: Option[] };
type ActionData =
  | { intent: "profile"; result: SubmissionResult<string[]>; regions: RegionList | null }
  | { intent: "invisible"; error: string };

/** The site's countries, and the member's own when the site no longer lists it (the api accepts keeping it). */
function countryCodes(siteCountries: string[], own: string): string[] {
  return siteCountries.includes(own) ? siteCountries : [...siteCountries, own];
}

async function regionsOf(request: Request, context: AppLoadContext, country: string): Promise<RegionList> {
  // Cached per country (app/features/account/regions.server.ts): the region lists are a fixed data set.
  const regions = await getRegions(request, context, country);
  return { country, options: (regions ?? []).map((r) => ({ value: r.code, label: r.name })) };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await requireUser(request, context);
  const settings = await getSettings(request, context);
  const { profile } = user;
  const done = new URL(request.url).searchParams.get("done");
  const visible = visibleOptionalFields(settings);
  const countries = countryCodes(settings.countries, profile.country);
  return {
    title: fixedT(locale, "profile")("metaTitle", { site: settings.name }),
    description: metaDescription(locale, "profile"),
    done: doneStates.find((d) => d === done) ?? null,
    email: user.email,
    minAge: settings.min_age,
    countries: countryOptions(locale, countries),
    constraint: formConstraint(profileFormSchema(fixedT(locale, "profile"), { minAge: settings.min_age, email: user.email, countries })),
    regions: await regionsOf(request, context, profile.country),
    interests: visible.includes("interests") ? settings.interests : [],
    visible,
    profile,
    thumbnail: profile.main_image ? settings.cdn_prefix + profile.main_image.thumb_filename : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const user = await requireUser(request, context);
  const settings = await getSettings(request, context);
  const t = fixedT(locale, "profile");
  const formData = await request.formData();
  const api = apiFor(request, context);
  const done = (state: Done) => redirect(`/profile?done=${state}`);

  if (formData.get("intent") === "invisible") {
    const wanted = formData.get("invisible");
    if (wanted !== "1" && wanted !== "0") throw data(null, { status: 400 });
    const result = await api.call(endpoints.updateProfile, { body: { invisible: wanted === "1" } });
    if (result.ok) throw done(wanted === "1" ? "invisible-on" : "invisible-off");
    return data<ActionData>({ intent: "invisible", error: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
  }
  if (formData.get("intent") !== "profile") throw data(null, { status: 400 });

  const countries = countryCodes(settings.countries, user.profile.country);
  const chosen = formData.get("country");
  const country = typeof chosen === "string" && countries.includes(chosen) ? chosen : user.profile.country;
  const regions = await regionsOf(request, context, country);

  // Without JavaScript, "Show the regions" posts the form: answer the chosen country's regions, save nothing.
  if (formData.get("regions")) {
    if (!regions.options.some((o) => o.value === formData.get("region"))) formData.set("region", "");
    const kept = parseWithZod(formData, { schema: z.looseObject({}) });
    return data<ActionData>({ intent: "profile", result: kept.reply(), regions });
  }

  const schema = profileFormSchema(t, { minAge: settings.min_age, email: user.email, countries });
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data<ActionData>({ intent: "profile", result: submission.reply(), regions }, { status: 400 });
  const result = await api.call(endpoints.updateProfile, { body: profileUpdateOf(submission.value, visibleOptionalFields(settings)) });
  if (result.ok) throw done("saved");
  const { error } = result;
  const reply =
    error.error === "validation_failed" && error.fields
      ? submission.reply({ fieldErrors: apiFieldErrors(t, error.fields) })
      : submission.reply({ formErrors: [apiErrorMessage(fixedT(locale), error)] });
  return data<ActionData>({ intent: "profile", result: reply, regions }, { status: result.status });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function OwnProfile() {
  const { t } = useTranslation("profile");
  const { done, profile, thumbnail } = useLoaderData<typeof loader>();
  // After each save the form mounts again with the saved values.
  const key = useFormMountKey();
  return (
    <section className="container max-w-2xl py-10" data-testid="own-profile">
      <div className="flex items-center gap-4">
        <Link to="/profile/photos" className="shrink-0" aria-label={t("photo.manage")}>
          {thumbnail ? (
            <img src={thumbnail} alt={t("photo.alt")} width={80} height={80} className="h-20 w-20 rounded-full bg-gray-100 object-cover" data-testid="profile-thumbnail" />
          ) : (
            <span className="flex h-20 w-20 items-center justify-center rounded-full bg-gray-100 text-3xl font-semibold text-gray-400" aria-hidden="true">
              {profile.name.slice(0, 1)}
            </span>
          )}
        </Link>
        <div>
          <h1 className="text-2xl font-bold text-gray-900">{t("title")}</h1>
          <p className="text-gray-600">{t("lead")}</p>
          <Link to="/profile/photos" className="text-sm font-semibold" data-testid="manage-photos">
            {t("photo.manage")}
          </Link>
          {thumbnail ? null : <p className="text-sm text-gray-500">{t("photo.none")}</p>}
        </div>
      </div>
      <div className="mt-6 space-y-6">
        {done === "saved" ? <Notice>{t("saved")}</Notice> : null}
        <ProfileForm key={key} />
        <Panel title={t("invisible.title")} testId="invisible-mode">
          {done === "invisible-on" || done === "invisible-off" ? <Notice>{t(done === "invisible-on" ? "invisible.turnedOn" : "invisible.turnedOff")}</Notice> : null}
          <InvisibleModeForm invisible={profile.invisible} />
        </Panel>
        <Panel title={t("sections.account")} testId="account-links">
          <ul className="space-y-2">
            <li>
              <Link to="/profile/account" className="font-semibold">
                {t("account.settings")}
              </Link>
            </li>
            <li>
              <Link to="/profile/blocked" className="font-semibold">
                {t("account.blocked")}
              </Link>
            </li>
            <li>
              <Link to="/profile/delete" className="font-semibold">
                {t("account.delete")}
              </Link>
            </li>
          </ul>
        </Panel>
        <DataExportPanel />
      </div>
    </section>
  );
}


function ProfileForm() {
  const { t } = useTranslation("profile");
  const loaderData = useLoaderData<typeof loader>();
  const { profile, email, minAge, countries, interests, visible, constraint } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formData?.get("intent") === "profile";
  const answer = actionData?.intent === "profile" ? actionData : undefined;
  // The member's e-mail, the minimum age and the countries do not change while the page is open.
  const codes = countries.map((c) => c.value).join(",");
  const schema = useMemo(() => () => import("~/features/account/profile-form").then((m) => (t: TFunction) => m.profileFormSchema(t, { minAge, email, countries: codes.split(",") })), [minAge, email, codes]);
  const { form, fields, formProps, validation } = useValidatedForm({
    id: "profile-form",
    schema,
    constraint,
    lastResult: answer?.result,
    t,
    defaultValue: {
      intent: "profile",
      name: profile.name,
      date_of_birth: profile.date_of_birth,
      gender: profile.gender,
      sexuality: profile.sexuality,
      country: profile.country,
      region: profile.region ?? "",
      city: profile.city ?? "",
      about_me: profile.about_me,
      interests: profile.interests.map(String),
      ...Object.fromEntries(profileChoiceFields.map((field) => [field, profile[field] ?? ""])),
    },
  });
  const regions = answer?.regions ?? loaderData.regions;
  const details = profileChoiceFields.filter((field) => visible.includes(field));
  return (
    <Form method="post" className="space-y-6" {...formProps}>
      {validation}
      {/* The first submit button is the one Enter presses: saving, never "Show the regions". */}
      <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true" />
      <input {...inputProps(fields.intent, { type: "hidden" })} />
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <Panel title={t("sections.basics")} testId="profile-basics">
        <InputField
          field={fields.name}
          label={t("signup.name", { ns: "common" })}
          type="text"
          autoComplete="nickname"
          hint={<p className="mt-1 text-xs text-gray-500">{t("signup.nameHint", { ns: "common" })}</p>}
        />
        <InputField field={fields.date_of_birth} label={t("signup.dateOfBirth", { ns: "common" })} type="date" autoComplete="bday" />
        <GenderField field={fields.gender} label={t("steps.gender", { ns: "common" })} />
        <SelectField
          field={fields.sexuality}
          label={t("steps.sexuality", { ns: "common" })}
          options={sexualities.map((s) => ({ value: s, label: t(`profile.sexuality.${s}`, { ns: "common" }) }))}
        />
      </Panel>
      <Panel title={t("sections.location")} testId="profile-location">
        <p className="text-sm text-gray-600">{t("location.lead")}</p>
        <LocationFields
          country={fields.country}
          region={fields.region}
          city={fields.city}
          countries={countries}
          regions={regions.options}
          regionsCountry={regions.country}
          current={{ country: profile.country, region: profile.region ?? "", city: profile.city ?? "" }}
        />
      </Panel>
      <Panel title={t("sections.aboutMe")} testId="profile-about">
        <TextareaField field={fields.about_me} label={t("steps.aboutMe", { ns: "common" })} rows={5} />
        {visible.includes("interests") ? <InterestsField field={fields.interests} label={t("steps.interests", { ns: "common" })} interests={interests} /> : null}
      </Panel>
      {details.length > 0 ? (
        <Panel title={t("sections.details")} testId="profile-details">
          <div className="grid gap-4 sm:grid-cols-2">
            {details.map((field) => (
              <ProfileChoiceSelect key={field} name={field} field={fields[field]} fallback={profile[field]} />
            ))}
          </div>
        </Panel>
      ) : null}
      <SubmitButton busy={busy} busyText={t("steps.saving", { ns: "common" })}>
        {t("save")}
      </SubmitButton>
    </Form>
  );
}
