import { useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useLayoutEffect, useMemo, type FormEvent } from "react";
import type { z } from "zod";
import type { Constraint, DefaultValue, FormView } from "./form-view";
import { fieldNames, fieldView } from "./form-view";

/** What conform does to the form: check it on submit, and set a field's value (re-rendering its input). */
export type FormControls = { onSubmit: (event: FormEvent<HTMLFormElement>) => void; update: (options: { name: string; value: string }) => void };

export type BridgeProps = {
  id: string;
  schema: z.ZodObject;
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue: DefaultValue | undefined;
  /** Fields that lost focus before this code arrived: validated at once, as conform would have on their blur. */
  blurred: { readonly current: readonly string[] };
  onView: (view: FormView, controls: FormControls) => void;
};

/** The plain view of conform's metadata (form-view.ts): what the page renders. */
export function snapshot(id: string, constraint: Record<string, Constraint>, errors: Record<string, string[] | null> | undefined, formErrors: string[] | undefined, field: (name: string) => FieldMetadata<unknown>): FormView {
  const fields = Object.fromEntries(
    fieldNames(constraint, errors).map((name) => {
      const meta = field(name);
      return [name, fieldView(id, name, meta.errors, meta.initialValue, meta.value, constraint[name])];
    }),
  );
  return { id, errorId: `${id}-error`, descriptionId: `${id}-description`, errors: formErrors, fields };
}

/**
 * conform with the form's zod schema, loaded on the form's first focus (validated-form.tsx): it renders nothing and
 * hands the page what conform derives (client-side checks on blur and again on input, the same texts as the action's).
 */
export function ConformBridge({ id, schema, lastResult, defaultValue, blurred, onView }: BridgeProps) {
  const constraint = useMemo(() => getZodConstraint(schema), [schema]);
  const [form, fields] = useForm<Record<string, unknown>>({
    id,
    lastResult,
    // conform serialises the default values itself (form-view.ts does the same before it has loaded).
    defaultValue: defaultValue as never,
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const view = snapshot(id, constraint, form.allErrors, form.errors, (name) => fields[name] as FieldMetadata<unknown>);
  useLayoutEffect(() => onView(view, { onSubmit: form.onSubmit, update: form.update }));
  useEffect(() => {
    for (const name of blurred.current) form.validate({ name });
    // Once, when the code arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}
