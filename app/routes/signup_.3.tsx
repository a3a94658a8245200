import type { MetaFunction } from "@remix-run/node";
import { pageMeta } from "~/utils/page-title";
import { SignupStepFrame } from "~/features/signup/signup-step-frame";
import { Form, useNavigation } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { profileStepAction, signupStepLoader, type SignupStepLoaderData } from "~/features/signup/signup-step.server";
import { useLoaderData } from "@remix-run/react";
import { FormAlert, InputField, SelectField, SubmitButton } from "~/components/ui/form-fields";
import { GenderField } from "~/features/account/profile-choices";
import { sexualities } from "~/features/account/profile-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { useStepForm } from "~/features/signup/signup-step-frame";
import { regionLabelKey } from "#contract/region-kinds";

export const handle = { hideEntryWarning: true };

/** Signup step 3 (docs/product.md §2): personal info, every field optional, the step itself skippable. */
export const loader = signupStepLoader(3);
export const action = profileStepAction(3);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function SignupPersonalStep() {
  const { t } = useTranslation();
  const { countries, regions, profile } = useLoaderData<SignupStepLoaderData>();
  const navigation = useNavigation();
  // The list of countries is the site's: it does not change while the page is open.
  const codes = countries.map((c) => c.value).join(",");
  const personalSchema = useMemo(() => () => import("~/features/signup/step-forms").then((m) => (t: TFunction) => m.personalSchema(t, codes.split(","))), [codes]);
  const { form, fields, formProps, validation } = useValidatedForm({ id: "signup-step-3", schema: personalSchema, ...useStepForm<typeof action>(), t });
  return (
    <SignupStepFrame>
      <Form method="post" className="mt-6 space-y-4" {...formProps}>
      {validation}
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <GenderField field={fields.gender} label={t("steps.gender")} fallback={profile.gender} />
      <SelectField field={fields.sexuality} label={t("steps.sexuality")} fallback={profile.sexuality} options={sexualities.map((s) => ({ value: s, label: t(`profile.sexuality.${s}`) }))} />
      <SelectField field={fields.country} label={t("steps.country")} fallback={profile.country} options={countries} />
      {/* The regions (and so their name: state, province, canton...) of the member's country. */}
      {regions.length > 0 ? <SelectField field={fields.region} label={t(regionLabelKey(profile.country), { ns: "profile" })} fallback={profile.region} options={regions} placeholder={t("steps.regionNone")} /> : null}
      <InputField field={fields.city} label={t("steps.city")} type="text" autoComplete="address-level2" />
      <SubmitButton busy={navigation.state !== "idle"} busyText={t("steps.saving")}>
        {t("steps.saveAndContinue")}
      </SubmitButton>
      </Form>
    </SignupStepFrame>
  );
}
