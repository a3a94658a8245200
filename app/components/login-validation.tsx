import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { useEffect, useLayoutEffect, type FormEvent, type FormHTMLAttributes, type InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { loginSchema } from "~/login-form";
import { useValidatedForm } from "./validated-form";

export type LoginFieldName = "email" | "password";

/** The attributes and errors of the login form, as conform derives them (or as the page derives them from the action's reply). */
export type LoginFormView = {
  form: Pick<FormHTMLAttributes<HTMLFormElement>, "id" | "noValidate" | "aria-describedby" | "aria-invalid">;
  formErrors: string[] | undefined;
  fields: Record<LoginFieldName, { props: InputHTMLAttributes<HTMLInputElement>; errors: string[] | undefined }>;
};

type Props = {
  lastResult: SubmissionResult<string[]> | undefined;
  /** Fields that lost focus before this code arrived: validated at once, as conform would have on their blur. */
  blurred: { readonly current: readonly LoginFieldName[] };
  onView: (view: LoginFormView, onSubmit: (event: FormEvent<HTMLFormElement>) => void) => void;
};

/**
 * conform and the login schema for the login page, loaded on the form's first focus: it renders nothing and
 * hands the page what conform derives (client-side checks on blur and submit, the same texts as the action's).
 */
export function LoginValidation({ lastResult, blurred, onView }: Props) {
  const { t } = useTranslation();
  const [form, fields] = useValidatedForm("login", loginSchema(t), lastResult);
  const { onSubmit, ...formProps } = getFormProps(form);
  const view: LoginFormView = {
    form: formProps,
    formErrors: form.errors,
    fields: {
      email: { props: getInputProps(fields.email, { type: "email" }), errors: fields.email.errors },
      password: { props: getInputProps(fields.password, { type: "password" }), errors: fields.password.errors },
    },
  };
  useLayoutEffect(() => onView(view, onSubmit));
  useEffect(() => {
    for (const name of blurred.current) form.validate({ name });
    // Once, when the code arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}
