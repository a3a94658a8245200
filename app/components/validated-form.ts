import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * conform's useForm as every form here uses it: the same zod schema as the action, constraint
 * attributes for the browser, validation on blur and again on each input once a field has an error.
 */
export function useValidatedForm<Schema extends z.ZodObject>(id: string, schema: Schema, lastResult: SubmissionResult<string[]> | null | undefined) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}
