import type { SubmissionResult } from "@conform-to/react";

/** conform's constraint attributes of a field, as `getZodConstraint` derives them from the schema. */
export type Constraint = {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  multiple?: boolean;
  pattern?: string;
};

/**
 * A field as the form parts read it: what conform's field metadata holds (the same ids, errors, initial value and
 * constraint), as a plain object. Before conform has loaded it comes from the action's reply (`replyView`), after
 * from conform itself (conform-bridge.tsx); both give the same attributes for the same state.
 */
export type FieldView = Constraint & {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  errors: string[] | undefined;
  initialValue: unknown;
  /** The value as conform last saw it (on each input once loaded); before, the initial value. */
  value: unknown;
};

export type FormView = { id: string; errorId: string; descriptionId: string; errors: string[] | undefined; fields: Record<string, FieldView> };

/** The values a form starts with before it was ever submitted (conform's `defaultValue`). */
export type DefaultValue = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** conform's serialisation of a default value: strings as they are, numbers as text, true as "on", dates as ISO. */
function serialize(value: unknown): unknown {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(serialize);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, serialize(item)]));
  return undefined;
}

/** Every level of a nested value by conform's field name ("a", "a.b", "list", "list[0]"), as conform keeps initial values. */
function flatten(value: unknown, prefix = "", out: Record<string, unknown> = {}): Record<string, unknown> {
  if (prefix) out[prefix] = value;
  if (Array.isArray(value)) value.forEach((item, index) => flatten(item, `${prefix}[${index}]`, out));
  else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) flatten(item, prefix ? `${prefix}.${key}` : key, out);
  return out;
}

/**
 * The fields a form view lists: those of the schema (its constraint) and any with an error, but not the items of a
 * list ("interests[]" is the constraint of every chosen interest, no field of its own).
 */
export function fieldNames(constraint: Record<string, Constraint>, errors: Record<string, unknown> | undefined): string[] {
  return [...new Set([...Object.keys(constraint), ...Object.keys(errors ?? {})])].filter((name) => name !== "" && !name.includes("[]"));
}

export function fieldView(formId: string, name: string, errors: string[] | null | undefined, initialValue: unknown, value: unknown, constraint: Constraint | undefined): FieldView {
  const id = `${formId}-${name}`;
  return { ...constraint, id, name, formId, errorId: `${id}-error`, descriptionId: `${id}-description`, errors: errors ?? undefined, initialValue, value };
}

/**
 * The form as conform starts it from the action's last reply (or, before any, the default values), without conform:
 * what the server renders and the browser shows until conform has loaded on the form's first focus.
 */
export function replyView(id: string, constraint: Record<string, Constraint>, lastResult: SubmissionResult<string[]> | null | undefined, defaultValue?: DefaultValue): FormView {
  const error = lastResult?.error ?? {};
  const initial = flatten(lastResult?.initialValue ?? serialize(defaultValue ?? {}));
  const names = fieldNames(constraint, error);
  const fields = Object.fromEntries([...names].map((name) => [name, fieldView(id, name, error[name], initial[name], initial[name], constraint[name])]));
  return { id, errorId: `${id}-error`, descriptionId: `${id}-description`, errors: error[""] ?? undefined, fields };
}

/** Property names that are no field: what JavaScript, React and promises ask objects for. */
const notFields = new Set(["then", "toJSON", "$$typeof", "constructor", "toString", "valueOf", "hasOwnProperty"]);

/** A field a form view does not list (no constraint, no error): its ids, nothing else. */
export function withFallbackFields(view: FormView): Record<string, FieldView> {
  return new Proxy(view.fields, {
    get: (fields, name, receiver) => {
      if (typeof name !== "string" || notFields.has(name)) return Reflect.get(fields, name, receiver) as unknown;
      return Object.hasOwn(fields, name) ? fields[name] : fieldView(view.id, name, undefined, undefined, undefined, undefined);
    },
  });
}

const defined = <T extends Record<string, unknown>>(props: T): T => Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined)) as T;

/** What every control gets, as conform's helpers set it: ids, name, form, required, aria-invalid and aria-describedby. */
function controlProps(field: FieldView) {
  const invalid = field.errors !== undefined;
  return {
    id: field.id,
    name: field.name,
    form: field.formId,
    required: field.required || undefined,
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? field.errorId : undefined,
  };
}

/** The initial value of a control that shows one text (a text input, a textarea, a select). */
const initialText = (field: FieldView) => (typeof field.initialValue === "string" ? field.initialValue : undefined);

type InputOptions = { type: string; value?: string };

/** An input's attributes (conform's getInputProps): the control's, its type and constraint, and the initial value. */
export function inputProps(field: FieldView, { type, value }: InputOptions) {
  const props: Record<string, unknown> = {
    ...controlProps(field),
    type,
    minLength: field.minLength,
    maxLength: field.maxLength,
    min: field.min,
    max: field.max,
    step: field.step,
    pattern: field.pattern,
    multiple: field.multiple,
  };
  if (type === "checkbox" || type === "radio") {
    props.value = value ?? "on";
    props.defaultChecked = Array.isArray(field.initialValue) ? field.initialValue.includes(props.value) : field.initialValue === props.value;
  } else {
    props.defaultValue = initialText(field);
  }
  return defined(props) as { id: string; name: string; type: string } & Record<string, unknown>;
}

/** A textarea's attributes (conform's getTextareaProps). */
export function textareaProps(field: FieldView) {
  return defined({ ...controlProps(field), minLength: field.minLength, maxLength: field.maxLength, defaultValue: initialText(field) });
}

/** A select's attributes (conform's getSelectProps, one value). */
export function selectProps(field: FieldView) {
  return defined({ ...controlProps(field), defaultValue: initialText(field) });
}
