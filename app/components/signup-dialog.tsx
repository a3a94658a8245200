import { useFetcher } from "@remix-run/react";
import { useAtom } from "jotai";
import { lazy, Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { signupModalOpenAtom } from "~/state/signup-modal";
import type { SignupActionData } from "./signup-form";
import { useHref, useRootData } from "./root-data";

// The form (conform, zod, the e-mail spell checker) loads with the dialog's first opening.
const SignupForm = lazy(() => import("./signup-form").then((module) => ({ default: module.SignupForm })));

/** docs/product.md §4: while a signup is in progress the modal cannot be closed by the backdrop or Escape. */
export function SignupDialog() {
  const { t } = useTranslation();
  const href = useHref();
  const root = useRootData();
  const [open, setOpen] = useAtom(signupModalOpenAtom);
  const fetcher = useFetcher<SignupActionData>();
  const dialog = useRef<HTMLDialogElement>(null);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  if (!root?.signup || root.user) return null;
  return (
    <dialog
      ref={dialog}
      aria-labelledby="signup-modal-title"
      className="m-auto w-full max-w-md rounded-2xl p-0 shadow-xl backdrop:bg-gray-900/70"
      data-testid="signup-modal"
      data-busy={busy ? "true" : undefined}
      onCancel={(event) => {
        // Escape: ignored while the account is being created.
        if (busy) event.preventDefault();
        else setOpen(false);
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget && !busy) setOpen(false);
      }}
      onClose={() => setOpen(false)}
    >
      <div className="p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id="signup-modal-title" className="text-2xl font-bold text-gray-900">
            {t("signup.title")}
          </h2>
          <button type="button" disabled={busy} onClick={() => setOpen(false)} className="rounded-full px-2 text-2xl leading-none text-gray-500 hover:text-gray-800 disabled:opacity-40" aria-label={t("signup.close")}>
            ×
          </button>
        </div>
        <p className="mt-1 text-gray-600">{t("signup.lead")}</p>
        {open ? (
          <Suspense fallback={<p className="mt-6 text-center text-gray-500">{t("signup.loading")}</p>}>
            <SignupForm as={fetcher.Form} action={href("/signup")} lastResult={fetcher.data} busy={busy} minAge={root.signup.minAge} askMessage={root.signup.askMessage} />
          </Suspense>
        ) : null}
      </div>
    </dialog>
  );
}
