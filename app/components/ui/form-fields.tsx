import type { ReactNode, Ref } from "react";
import { Button } from "./button";
import { inputProps, selectProps, textareaProps, type FieldView } from "./form-view";

const inputClass =
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

/** A labelled select outside a validated form (a choice among many on one list, e.g. one per row), in the same look. */
export function PlainSelect({ id, name, label, options, defaultValue = "", small = false }: { id: string; name: string; label: string; options: readonly { value: string; label: string }[]; defaultValue?: string; small?: boolean }) {
  return (
    <div>
      <label htmlFor={id} className={`block font-medium text-gray-700 ${small ? "text-xs" : "text-sm"}`}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={inputClass}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled checkbox of a validated form (its value "on" when ticked, nothing when not). */
export function CheckboxField({ field, label }: { field: FieldView; label: string }) {
  return (
    <div>
      <div className="flex items-start gap-2">
        <input {...inputProps(field, { type: "checkbox" })} className="mt-0.5 h-4 w-4 rounded border-gray-400" />
        <label htmlFor={field.id} className="text-sm text-gray-800">
          {label}
        </label>
      </div>
      <FieldErrors field={field} />
    </div>
  );
}

/** Checkboxes of one name, one per option: the chosen options as a list. */
export function CheckboxGroupField({ field, label, options }: { field: FieldView; label: string; options: readonly { value: string; label: string }[] }) {
  const chosen = Array.isArray(field.initialValue) ? field.initialValue : [];
  const invalid = field.errors !== undefined;
  return (
    <fieldset id={field.id} aria-invalid={invalid || undefined} aria-describedby={invalid ? field.errorId : undefined}>
      <legend className="text-sm font-medium text-gray-700">{label}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-1.5 text-sm text-gray-800">
            <input type="checkbox" name={field.name} form={field.formId} value={option.value} defaultChecked={chosen.includes(option.value)} className="h-4 w-4 rounded border-gray-400" />
            {option.label}
          </label>
        ))}
      </div>
      <FieldErrors field={field} />
    </fieldset>
  );
}

export function FormAlert({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <div id={id} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-danger" data-testid="form-error">
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
