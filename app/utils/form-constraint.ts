import { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { Constraint } from "~/components/ui/form-view";

/**
 * A form's constraint attributes (required, lengths, patterns) from its zod schema, for its page's loader: the page
 * renders them before conform and zod have loaded in the browser (app/components/ui/validated-form.tsx).
 */
export function formConstraint(schema: z.ZodObject): Record<string, Constraint> {
  return getZodConstraint(schema) as Record<string, Constraint>;
}
