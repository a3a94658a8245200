import { z } from "zod";

/*
 * Data export: a member asks for a copy of everything the site holds about them; a job builds a zip
 * (JSON files and photos) and mails a link; only that member (session) downloads it, for 7 days. Every call
 * needs a member (403 authentication_required for visitors).
 *
 *   POST /api/dataexport.php                       -> DataExportStatus (202): the new request. 429 too_many_requests
 *                                                     over the daily limit (limit "data_export").
 *   GET  /api/dataexport.php                       -> DataExportStatus: the member's latest export.
 *   GET  /api/dataexport-file.php?token=  DataExportFileQuery -> the zip (application/zip, Content-Disposition
 *                                                     attachment). 404 not_found for an unknown, expired or another member's token.
 */

export const dataExportStatuses = ["none", "pending", "building", "ready", "failed"] as const;

export const DataExportStatus = z.object({
  status: z.enum(dataExportStatuses),
  requested_at: z.string().nullable(),
  /** Until when the zip can be downloaded (ready only). */
  expires_at: z.string().nullable(),
  /** The download's token (ready only), for GET /api/dataexport-file.php. */
  token: z.string().nullable(),
});
export type DataExportStatus = z.infer<typeof DataExportStatus>;

export const DataExportFileQuery = z.object({ token: z.string().regex(/^[\w-]{20,64}$/) });
