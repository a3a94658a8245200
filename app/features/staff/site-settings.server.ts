import type { AppLoadContext } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { SiteOutcome } from "#contract/staff-sites";
import { clearSettingsCache } from "~/utils/session.server";
import { staffWrite } from "./staff-write.server";
import { formErrorsOfApi, siteSettingsFormSchema, siteSettingsOfForm } from "./site-settings-form";

export type SiteSave = { ok: true; id: number } | { ok: false; status: number; error: string; reply: SubmissionResult<string[]> | null; changed: boolean };

/**
 * Sends a site change to the api (/api/staff/sites.php). A create or update first parses the settings form with its
 * schema (site-settings-form.ts); a refusal, the form's or the api's, answers conform's reply, which shows what was
 * typed again with each message at its field. A saved change also empties this web instance's settings cache, so the
 * next page here shows it.
 */
export async function saveSite(request: Request, context: AppLoadContext, form: FormData, body: Record<string, unknown>, texts: { changed: string }): Promise<SiteSave> {
  const withSettings = body.action === "create" || body.action === "update";
  const submission = withSettings ? parseWithZod(form, { schema: siteSettingsFormSchema() }) : null;
  if (submission && submission.status !== "success") return { ok: false, status: 400, error: "", reply: submission.reply(), changed: false };
  const settings = submission?.status === "success" ? siteSettingsOfForm(submission.value) : undefined;
  const result = await staffWrite(request, context, "/api/staff/sites.php", SiteOutcome, settings ? { ...body, settings } : body);
  if (!result.ok) {
    const changed = result.fields.updated_at;
    const { "": unplaced = [], ...fieldErrors } = formErrorsOfApi(result.fields);
    const formErrors = changed ? [`${texts.changed}: ${changed.join(" ")}`] : Object.keys(fieldErrors).length ? unplaced : [result.message];
    return { ok: false, status: result.status, error: result.message, reply: submission ? submission.reply({ fieldErrors, formErrors }) : null, changed: Boolean(changed) };
  }
  clearSettingsCache();
  return { ok: true, id: result.data.id };
}
