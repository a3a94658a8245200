import type { SubmissionResult } from "@conform-to/react";
import type { FieldView } from "~/components/ui/form-view";
import { useEffect, useLayoutEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { InputField } from "~/components/ui/form-fields";

/** The narrow white card the access pages (login, reset password, deletion result) sit in. */
export function AccessCard({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <section className="container flex justify-center py-12">
      <div className={`w-full ${wide ? "max-w-lg" : "max-w-sm"} rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100`}>
        <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
        {children}
      </div>
    </section>
  );
}

// useLayoutEffect warns when rendered on the server; the server never runs effects anyway.
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

// In a module of its own so that pages without conform forms (login) can show it without loading conform.
export { Notice } from "~/components/ui/notice";

/**
 * After a refused submit the password fields are empty again: `hideFields` does it for a full page
 * load; after a client-side submit this clears them in the DOM (a conform update would revalidate
 * and drop the server's error). Before the browser paints the error: cleared after it, what the member had begun to
 * type again would be lost. `alsoNamed`: other secrets to clear, such as a one-time code.
 */
export function useEmptyPasswordsAfterError(formId: string, lastResult: SubmissionResult<string[]> | undefined, alsoNamed: readonly string[] = []) {
  const others = alsoNamed.join(",");
  useBrowserLayoutEffect(() => {
    if (lastResult?.status !== "error") return;
    const selector = ['input[type="password"]', ...(others ? others.split(",") : []).map((name) => `input[name="${name}"]`)].join(",");
    for (const input of document.getElementById(formId)?.querySelectorAll<HTMLInputElement>(selector) ?? []) input.value = "";
  }, [formId, lastResult, others]);
}

/** The new password and its repeat, as the reset and change forms ask for them. */
export function NewPasswordFields({ password, repeat }: { password: FieldView; repeat: FieldView }) {
  const { t } = useTranslation("account");
  return (
    <>
      <InputField
        field={password}
        label={t("fields.newPassword")}
        type="password"
        autoComplete="new-password"
        hint={<p className="mt-1 text-xs text-gray-500">{t("fields.passwordHint")}</p>}
      />
      <InputField field={repeat} label={t("fields.repeatPassword")} type="password" autoComplete="new-password" />
    </>
  );
}
