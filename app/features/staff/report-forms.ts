import type { TFunction } from "i18next";
import { z } from "zod";
import { moderationReasons } from "#contract/moderation-reasons";
import { reportMeasures } from "#contract/staff-moderation";

/**
 * A report decided in one step (app/routes/staff.reports.$id.tsx): the measure, the statement of reasons, the close,
 * and what the sender is told. The same checks as the api's (contract/staff-moderation.ts ReportActionRequest decide).
 */
const optionalText = z.string().trim().max(2000).optional();

export function decideSchema(t: TFunction) {
  return z
    .object({
      intent: z.literal("decide"),
      outcome: z.enum(["resolve", "reject"], { error: t("reports.decide.validation.outcome") }),
      measure: z.enum(reportMeasures).default("none"),
      reason: z.enum(moderationReasons).optional(),
      until: z.iso.date().optional(),
      statement: optionalText,
      reply: optionalText,
      note: optionalText,
    })
    .superRefine((body, ctx) => {
      if (body.measure === "none") return;
      if (body.outcome === "reject") ctx.addIssue({ code: "custom", path: ["measure"], message: t("reports.decide.validation.rejectMeasure") });
      if (!body.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: t("reports.decide.validation.reason") });
      if (!body.statement) ctx.addIssue({ code: "custom", path: ["statement"], message: t("reports.decide.validation.statement") });
      if (body.measure === "suspend" && !body.until) ctx.addIssue({ code: "custom", path: ["until"], message: t("reports.decide.validation.until") });
    });
}
