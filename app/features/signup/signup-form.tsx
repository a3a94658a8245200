import { Form, Link, type useFetcher } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import { FormAlert, InputField, SubmitButton, TextareaField } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { whenShown } from "~/utils/when-shown";
import type { SignupActionData } from "~/types";

// Shown after a refused date of birth only: its code (and the Modal's) loads then.
const DateOfBirthPopup = whenShown("DateOfBirthPopup", () => import("./date-of-birth-popup").then((m) => m.DateOfBirthPopup));

type FormLike = typeof Form | ReturnType<typeof useFetcher>["Form"];

type Props = {
  action: string;
  lastResult: SignupActionData | undefined;
  busy: boolean;
  minAge: number;
  askMessage: boolean;
  invitation?: string;
  /** Remix's <Form> on the page; a fetcher's form in the modal. */
  as?: FormLike;
};

/**
 * The suggestion for a mistyped address. The spell checker (about 2 kB gzip) loads once the visitor has typed one;
 * until then, the action's suggestion for the address it sent back (the same on the server and when hydrating).
 */
function useEmailSuggestion(value: unknown, sentBack: string | null): string | null {
  const [suggest, setSuggest] = useState<((email: string | undefined) => string | null) | null>(null);
  const typed = typeof value === "string" && value.includes("@");
  useEffect(() => {
    if (typed && !suggest) void import("./email-suggestion").then((module) => setSuggest(() => module.suggestEmail));
  }, [typed, suggest]);
  return suggest ? suggest(typeof value === "string" ? value : undefined) : sentBack;
}

/** The latest date of birth that gives the minimum age, for the date picker's max. */
function latestBirthDate(minAge: number): string {
  const today = new Date();
  return new Date(Date.UTC(today.getUTCFullYear() - minAge, today.getUTCMonth(), today.getUTCDate())).toISOString().slice(0, 10);
}

/** Step 0 of the signup (docs/product.md §2): e-mail, name, date of birth, password and, where the site asks, a first message. */
export function SignupForm({ action, lastResult, busy, minAge, askMessage, invitation, as: FormComponent = Form }: Props) {
  const { t } = useTranslation();
  const constraint = useRootData()?.signup.constraint ?? {};
  const schema = useMemo(() => () => import("./signup").then((m) => (t: TFunction) => m.signupSchema(t, { minAge, askMessage })), [minAge, askMessage]);
  const { form, fields, formProps, validation, update } = useValidatedForm({ id: "signup", schema, constraint, lastResult: lastResult?.result, t });
  const passwordRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (lastResult?.result.status === "error" && passwordRef.current) passwordRef.current.value = "";
  }, [lastResult]);

  // Shown while the typed address looks mistyped, so "my address is correct" stays once ticked.
  const suggestion = useEmailSuggestion(fields.email.value, lastResult?.suggestion ?? null);
  const invalidDateOfBirth = fields.date_of_birth.errors?.includes(t("errors.invalid_date_of_birth")) ?? false;
  // The popup answers a real submit, not a blur while typing: it shows for the date value that was submitted.
  // (conform validates by dispatching a submit with its "__intent__" button: those do not count.)
  const [submits, setSubmits] = useState(0);
  const serverDate = lastResult?.result.initialValue?.date_of_birth;
  const [submittedDate, setSubmittedDate] = useState<unknown>(serverDate);

  return (
    <FormComponent
      method="post"
      action={action}
      className="mt-6 space-y-4"
      {...formProps}
      onSubmit={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (submitter?.getAttribute("name") !== "__intent__") {
          setSubmits((n) => n + 1);
          setSubmittedDate(new FormData(event.currentTarget).get(fields.date_of_birth.name));
        }
        formProps.onSubmit(event);
      }}
    >
      {validation}
      {invitation ? <input type="hidden" name="invitation" value={invitation} /> : null}
      {form.errors ? (
        <FormAlert id={form.errorId}>
          {form.errors.join(" ")}{" "}
          {lastResult?.problem === "account_exists" ? (
            <Link to="/login" className="font-semibold underline">
              {t("signup.loginInstead")}
            </Link>
          ) : null}
        </FormAlert>
      ) : null}
      <InputField
        field={fields.email}
        label={t("signup.email")}
        type="email"
        autoComplete="email"
        hint={
          suggestion ? (
            <div className="mt-2 flex flex-wrap gap-2 text-sm" data-testid="email-suggestion">
              <button
                type="submit"
                name="email_suggestion"
                value={suggestion}
                formNoValidate
                onClick={(event) => {
                  // With conform loaded the address is corrected in place; before, and without JavaScript, the action does it.
                  if (update({ name: fields.email.name, value: suggestion })) event.preventDefault();
                }}
                className="rounded-full bg-primary-light px-3 py-1 font-medium text-primary-dark"
              >
                {t("signup.useSuggestion", { suggestion })}
              </button>
              <label className="flex items-center gap-1 text-gray-600">
                <input type="checkbox" name="keep_email" value="1" /> {t("signup.keepEmail")}
              </label>
            </div>
          ) : null
        }
      />
      <InputField field={fields.name} label={t("signup.name")} type="text" autoComplete="nickname" hint={<p className="mt-1 text-xs text-gray-500">{t("signup.nameHint")}</p>} />
      <InputField field={fields.date_of_birth} label={t("signup.dateOfBirth")} type="date" autoComplete="bday" max={latestBirthDate(minAge)} />
      <InputField field={fields.password} label={t("signup.password")} type="password" autoComplete="new-password" inputRef={passwordRef} hint={<p className="mt-1 text-xs text-gray-500">{t("signup.passwordHint")}</p>} />
      {askMessage ? <TextareaField field={fields.signup_message} label={t("signup.message")} rows={3} /> : null}
      <p className="text-xs text-gray-500">{t("signup.terms")}</p>
      <SubmitButton busy={busy} busyText={t("signup.submitting")}>
        {t("signup.submit")}
      </SubmitButton>
      <p className="text-center text-sm text-gray-600">
        {t("signup.haveAccount")}{" "}
        <Link to="/login" className="font-semibold">
          {t("signup.loginInstead")}
        </Link>
      </p>
      {invalidDateOfBirth && submittedDate !== undefined && submittedDate === (fields.date_of_birth.value ?? serverDate) ? <DateOfBirthPopup key={submits} minAge={minAge} /> : null}
    </FormComponent>
  );
}
