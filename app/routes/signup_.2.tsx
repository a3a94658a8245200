import type { MetaFunction } from "@remix-run/node";
import { pageMeta } from "~/utils/page-title";
import { SignupStepFrame } from "~/features/signup/signup-step-frame";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { photoStepAction, signupStepLoader } from "~/features/signup/signup-step.server";
import { PhotoUploadForm } from "~/features/account/photo-upload-form";

export const handle = { hideEntryWarning: true };

/** Signup step 2 (docs/product.md §2): one photo, with the same upload form as /profile/photos (more photos and the main one are chosen there). */
export const loader = signupStepLoader(2);
export const action = photoStepAction;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function SignupPhotoStep() {
  const { t } = useTranslation("photos");
  const lastResult = useActionData<typeof action>();
  return (
    <SignupStepFrame>
      <div className="mt-4 space-y-4">
        <p className="text-sm text-gray-600">{t("signupStep.lead")}</p>
        <PhotoUploadForm error={lastResult?.error?.[""]?.join(" ") ?? null} />
      </div>
    </SignupStepFrame>
  );
}
