import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import type { AnswerOf, BodyOf, Endpoint } from "#contract/endpoints/endpoint";
import { apiFor, type Api } from "~/utils/api.server";

export type StaffWrite<T> = { ok: true; data: T } | { ok: false; status: number; message: string; fields: Record<string, string[]> };

/**
 * A staff page's write through the api: the answer, or the refusal as one English sentence for the page (the api's
 * field messages where it gave them, else its message). A lapsed staff session goes back to /staff/login (apiFor).
 */
export async function staffWrite<E extends Endpoint & { method: "post"; body: z.ZodType }>(
  request: Request,
  context: AppLoadContext,
  endpoint: E,
  form: BodyOf<E> | Record<string, unknown>,
): Promise<StaffWrite<AnswerOf<E>>> {
  // Checked here with the endpoint's own schema (contract/endpoints/), so what is sent is the endpoint's body; a refusal reads as the api's would.
  const checked = endpoint.body.safeParse(form);
  if (!checked.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of checked.error.issues) (fields[issue.path.join(".") || "_"] ??= []).push(issue.message);
    return { ok: false, status: 400, message: Object.values(fields).flat().join(" "), fields };
  }
  const body = form as BodyOf<E>;
  const result = await apiFor(request, context).call(endpoint, ...([{ body }] as unknown as Parameters<Api["call"]>[1][]));
  if (result.ok) return { ok: true, data: result.data };
  const fields = Object.values(result.error.fields ?? {}).flat();
  return { ok: false, status: result.status, message: fields.length ? fields.join(" ") : result.error.message, fields: result.error.fields ?? {} };
}

/** A form's text field, trimmed ("" when missing or not text). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** A form's whole-number field, or NaN (the api then answers validation_failed, shown on the page). */
export function formNumber(form: FormData, name: string): number {
  const value = formText(form, name);
  return /^-?\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
}

/** A form's amount typed as 1.99 or 1,99 (up to `digits` digits before the point, two after), or NaN (the api refuses it). */
export function formDecimal(form: FormData, name: string, digits: number): number {
  const value = formText(form, name);
  return new RegExp(`^\\d{1,${digits}}([.,]\\d{1,2})?$`).test(value) ? Number(value.replace(",", ".")) : Number.NaN;
}

/** A form's values of a repeated field (checkboxes of one name). */
export function formList(form: FormData, name: string): string[] {
  return form.getAll(name).filter((value): value is string => typeof value === "string");
}
