import type { AppLoadContext } from "@remix-run/node";
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import {  photoMaxBytes, photoMaxMegabytes, photoUploadField } from "#contract/photos";
import type { Locale } from "#contract/locales";
import { endpoints } from "#contract/endpoints/index";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT } from "~/utils/i18n.server";
import { z } from "zod";
import { queryId } from "#contract/input";

export type PhotoUploadOutcome = { ok: true } | { ok: false; status: number; error: string };

/** Whether a form post is a photo upload (multipart) rather than one of the small forms beside it. */
export function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/**
 * Reads the `photo` of a multipart form post (in memory, at most photoMaxBytes) and forwards it to
 * POST /api/photos.php as multipart. The api decides whether it is an image and whether the member
 * may have another photo; this only says so in the page's language.
 */
export async function forwardPhotoUpload(
  request: Request,
  context: AppLoadContext,
  locale: Locale,
  /** Where the api takes it: the member's own photos, or a site-run profile's in the staff console. */
  target: { endpoint: typeof endpoints.uploadPhoto } | { endpoint: typeof endpoints.uploadSiteRunProfilePhoto; id: number } = { endpoint: endpoints.uploadPhoto },
): Promise<PhotoUploadOutcome> {
  const t = fixedT(locale);
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(
      request,
      // Only the photo is read; any other part is skipped, so a request cannot fill memory with extra parts.
      unstable_createMemoryUploadHandler({ maxPartSize: photoMaxBytes, filter: ({ name }) => name === photoUploadField }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { ok: false, status: 413, error: t("errors.file_too_large", { megabytes: photoMaxMegabytes }) };
    return { ok: false, status: 400, error: fixedT(locale, "photos")("upload.required") };
  }
  const file = form.get(photoUploadField);
  // A form sent without a chosen file has an empty part with no name.
  if (!(file instanceof File) || file.size === 0) return { ok: false, status: 400, error: fixedT(locale, "photos")("upload.required") };
  const body = new FormData();
  body.append(photoUploadField, file, file.name || "photo");
  const api = apiFor(request, context);
  const result = "id" in target ? await api.call(target.endpoint, { query: { id: target.id }, body }) : await api.call(target.endpoint, { body });
  if (result.ok) return { ok: true };
  return { ok: false, status: result.status, error: apiErrorMessage(t, result.error) };
}

/** The small forms beside the upload on /profile/photos: make a photo the main one, or delete it (after the confirm step). */
export const PhotoAction = z.object({ intent: z.enum(["main", "delete"]), id: queryId });
