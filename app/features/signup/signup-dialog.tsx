import { useFetcher } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { setSignupModalOpen, useSignupModalOpen } from "~/features/signup/signup-modal-state";
import type { SignupActionData } from "~/types";
import { useRootData } from "~/utils/root-data";
import { Modal } from "~/components/ui/modal";

// The form (conform, zod, the e-mail spell checker) loads with the dialog's first opening.
const SignupForm = lazy(() => import("./signup-form").then((module) => ({ default: module.SignupForm })));

/** docs/product.md §4: while a signup is in progress the modal cannot be closed by the backdrop or Escape. */
export function SignupDialog() {
  const { t } = useTranslation();
  const root = useRootData();
  const open = useSignupModalOpen();
  const setOpen = setSignupModalOpen;
  const fetcher = useFetcher<SignupActionData>();
  const busy = fetcher.state !== "idle";

  if (!root?.signup || root.user) return null;
  return (
    <Modal
      open={open}
      title={t("signup.title")}
      onClose={() => setOpen(false)}
      // docs/product.md §4: while the account is being created, neither Escape nor the backdrop closes it.
      closeOnEscape={!busy}
      closeOnClick={busy ? "never" : "backdrop"}
      closeLabel={t("signup.close")}
      closeDisabled={busy}
      size="md"
      backdropClassName="bg-gray-900/70"
      testId="signup-modal"
      busy={busy}
    >
      <p className="mt-1 text-gray-600">{t("signup.lead")}</p>
      {open ? (
        <Suspense fallback={<p className="mt-6 text-center text-gray-500">{t("signup.loading")}</p>}>
          <SignupForm as={fetcher.Form} action="/signup" lastResult={fetcher.data} busy={busy} minAge={root.signup.minAge} askMessage={root.signup.askMessage} />
        </Suspense>
      ) : null}
    </Modal>
  );
}
