import { getInputProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { snapshot } from "~/components/ui/conform-bridge";
import { inputProps, replyView, textareaProps, type DefaultValue, type FormView } from "~/components/ui/form-view";

/**
 * app/components/ui/validated-form.tsx renders a form from the action's reply until conform has loaded, then from
 * conform: both must give the same ids, errors, values and attributes, or the page would change under the member's
 * fingers (and hydration would not match). Here conform renders on the server (useForm works there) next to form-view.
 */
const schema = z.object({
  email: z.email().max(254),
  name: z.string().min(2).max(40),
  about: z.string().max(2000).optional(),
  agree: z.literal("on"),
  interests: z.array(z.string()).max(5).optional(),
});
const constraint = getZodConstraint(schema);

type Conform = { view: FormView; fields: Record<string, FieldMetadata<unknown>> };

function conformOf(lastResult: SubmissionResult<string[]> | undefined, defaultValue?: DefaultValue): Conform {
  let result: Conform | null = null;
  function Probe() {
    const [form, fields] = useForm<Record<string, unknown>>({ id: "probe", lastResult, defaultValue: defaultValue as never, constraint, onValidate: ({ formData }) => parseWithZod(formData, { schema }) });
    const field = (name: string) => fields[name] as FieldMetadata<unknown>;
    result = { view: snapshot("probe", constraint, form.allErrors, form.errors, field), fields: { email: field("email"), about: field("about"), agree: field("agree"), interests: field("interests") } };
    return null;
  }
  renderToString(createElement(Probe));
  if (!result) throw new Error("useForm did not render");
  return result;
}

/** A refused submit, as the action's `submission.reply()` sends it back. */
function refused(payload: Record<string, FormDataEntryValue | FormDataEntryValue[]>): SubmissionResult<string[]> {
  const formData = new FormData();
  for (const [name, value] of Object.entries(payload)) for (const item of [value].flat()) formData.append(name, item);
  const submission = parseWithZod(formData, { schema });
  if (submission.status === "success") throw new Error("expected a refusal");
  return submission.reply({ formErrors: ["Something went wrong."] });
}

describe("a validated form before and after conform has loaded", () => {
  it("is the same when nothing was submitted, with default values", () => {
    const defaults = { email: "anna@example.com", name: "Anna", agree: true, interests: ["1", "3"] };
    expect(replyView("probe", constraint, undefined, defaults)).toEqual(conformOf(undefined, defaults).view);
  });

  it("is the same after a refused submit: errors on the fields and the form, the sent values kept", () => {
    const lastResult = refused({ email: "not-an-address", name: "A", about: "x", interests: ["2", "4"] });
    const reply = replyView("probe", constraint, lastResult);
    expect(reply).toEqual(conformOf(lastResult).view);
    expect(reply.errors).toEqual(["Something went wrong."]);
    expect(reply.fields.email?.errors?.length).toBe(1);
    expect(reply.fields.agree?.errors?.length).toBe(1);
    // A list's items have a constraint ("interests[]") but no field of their own.
    expect(Object.keys(reply.fields).sort()).toEqual(["about", "agree", "email", "interests", "name"]);
  });

  it("gives an input, a checkbox and a textarea the attributes conform's helpers give them", () => {
    const lastResult = refused({ email: "not-an-address", name: "Anna", about: "hello", interests: ["2"] });
    const reply = replyView("probe", constraint, lastResult);
    const { fields } = conformOf(lastResult);
    expect(inputProps(reply.fields.email!, { type: "email" })).toEqual(getInputProps(fields.email! as FieldMetadata<string>, { type: "email" }));
    expect(inputProps(reply.fields.agree!, { type: "checkbox" })).toEqual(getInputProps(fields.agree! as FieldMetadata<string>, { type: "checkbox" }));
    expect(inputProps(reply.fields.interests!, { type: "checkbox", value: "2" })).toEqual(getInputProps(fields.interests! as FieldMetadata<string>, { type: "checkbox", value: "2" }));
    expect(inputProps(reply.fields.interests!, { type: "checkbox", value: "3" })).toMatchObject({ defaultChecked: false });
    expect(textareaProps(reply.fields.about!)).toEqual(getTextareaProps(fields.about! as FieldMetadata<string>));
  });
});
