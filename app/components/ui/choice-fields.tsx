import { inputProps, type FieldView } from "./form-view";
import { FieldErrors, inputClass } from "./form-fields";

/*
 * Form parts the staff console uses and member pages do not (a plain select outside a validated form, checkboxes of a
 * validated form): kept out of form-fields.tsx, which every member form's page loads.
 */

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

