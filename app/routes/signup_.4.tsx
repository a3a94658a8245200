import type { MetaFunction } from "@remix-run/node";
import { pageMeta } from "~/utils/page-title";
import { SignupStepFrame } from "~/features/signup/signup-step-frame";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { profileStepAction, signupStepLoader, type SignupStepLoaderData } from "~/features/signup/signup-step.server";
import { FormAlert, SubmitButton, TextareaField } from "~/components/ui/form-fields";
import { InterestsField } from "~/features/account/profile-choices";
import { useValidatedForm } from "~/components/ui/validated-form";
import { useStepForm } from "~/features/signup/signup-step-frame";

export const handle = { hideEntryWarning: true };

/** Signup step 4 (docs/product.md §2): about me and interests, every field optional, the step itself skippable. */
export const loader = signupStepLoader(4);
export const action = profileStepAction(4);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

const aboutSchema = () => import("~/features/signup/step-forms").then((m) => m.aboutSchema);

export default function SignupAboutStep() {
  const { t } = useTranslation();
  const { interests } = useLoaderData<SignupStepLoaderData>();
  const navigation = useNavigation();
  const { form, fields, formProps, validation } = useValidatedForm({ id: "signup-step-4", schema: aboutSchema, ...useStepForm<typeof action>(), t });
  return (
    <SignupStepFrame>
      <Form method="post" className="mt-6 space-y-4" {...formProps}>
      {validation}
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      <TextareaField field={fields.about_me} label={t("steps.aboutMe")} rows={5} />
      <InterestsField field={fields.interests} label={t("steps.interests")} interests={interests} />
      <SubmitButton busy={navigation.state !== "idle"} busyText={t("steps.saving")}>
        {t("steps.saveAndContinue")}
      </SubmitButton>
      </Form>
    </SignupStepFrame>
  );
}
