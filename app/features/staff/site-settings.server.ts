import type { AppLoadContext } from "@remix-run/node";
import {  type SiteResponse } from "#contract/staff-sites";
import { clearSettingsCache } from "~/utils/session.server";
import { formList, formNumber, formText, staffWrite } from "./staff-write.server";
import { siteSettingsBody, type FieldErrors } from "./site-settings";
import { endpoints } from "#contract/endpoints/index";

export type SiteSave = { ok: true; id: number } | { ok: false; status: number; error: string; fields: FieldErrors; values: SiteResponse["settings"] | null };

/**
 * Sends a site change to the api (/api/staff/sites.php). A saved change also empties this web instance's settings cache,
 * so the next page here shows it; a refused settings form answers with what was typed, to show it again.
 */
export async function saveSite(request: Request, context: AppLoadContext, form: FormData, body: Record<string, unknown>): Promise<SiteSave> {
  const settings = body.action === "create" || body.action === "update" ? siteSettingsBody(form, { text: (name) => formText(form, name), number: (name) => formNumber(form, name), list: (name) => formList(form, name) }) : undefined;
  const result = await staffWrite(request, context, endpoints.changeSite, settings ? { ...body, settings } : body);
  if (!result.ok) {
    // The form shows the typed values again (a number the browser could not read shows empty).
    const values = settings ? (Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, typeof value === "number" && Number.isNaN(value) ? null : value])) as SiteResponse["settings"]) : null;
    return { ok: false, status: result.status, error: result.message, fields: result.fields, values };
  }
  clearSettingsCache();
  return { ok: true, id: result.data.id };
}
