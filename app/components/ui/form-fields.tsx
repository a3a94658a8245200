import type { ReactNode, Ref } from "react";
import { Button } from "./button";
import { inputProps, selectProps, textareaProps, type FieldView } from "./form-view";

export const inputClass =
  "mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 aria-[invalid]:border-danger";

export function FieldErrors({ field }: { field: FieldView }) {
  if (!field.errors) return null;
  return (
    <p id={field.errorId} className="mt-1 text-sm text-danger">
      {field.errors.join(" ")}
    </p>
  );
}

type InputFieldProps = {
  field: FieldView;
  label: string;
  type: "text" | "email" | "password" | "date" | "number" | "tel";
  autoComplete?: string;
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
  max?: string;
  min?: string;
  inputMode?: "decimal" | "numeric";
};

/** A labelled input of a validated form (validated-form.tsx): constraint attributes, aria-invalid and its error text. */
export function InputField({ field, label, type, autoComplete, hint, inputRef, max, min, inputMode }: InputFieldProps) {
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <input {...inputProps(field, { type })} {...(max === undefined ? {} : { max })} {...(min === undefined ? {} : { min })} ref={inputRef} autoComplete={autoComplete} inputMode={inputMode} className={inputClass} />
      <FieldErrors field={field} />
      {hint}
    </div>
  );
}

export function TextareaField({ field, label, rows = 4 }: { field: FieldView; label: string; rows?: number }) {
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <textarea {...textareaProps(field)} rows={rows} className={inputClass} />
      <FieldErrors field={field} />
    </div>
  );
}

type SelectFieldProps = { field: FieldView; label: string; options: readonly { value: string; label: string }[]; placeholder?: string; fallback?: string };

/** A labelled select; `fallback` is the value shown before the form was ever submitted (e.g. the member's current one). */
export function SelectField({ field, label, options, placeholder, fallback }: SelectFieldProps) {
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <select
        {...selectProps(field)}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : (fallback ?? "")}
        className={inputClass}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldErrors field={field} />
    </div>
  );
}

export function FormAlert({ id, children, testId = "form-error" }: { id?: string; children: ReactNode; testId?: string }) {
  return (
    <div id={id} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-danger" data-testid={testId}>
      {children}
    </div>
  );
}

export function SubmitButton({ busy, children, busyText }: { busy: boolean; children: ReactNode; busyText: ReactNode }) {
  return (
    <Button disabled={busy} block>
      {busy ? busyText : children}
    </Button>
  );
}
