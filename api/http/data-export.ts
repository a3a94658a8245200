import { createReadStream } from "node:fs";
import { Router, type Request, type Response } from "express";
import type { Db } from "../db/client";
import { DataExportFileQuery, type DataExportStatus } from "#contract/data-export";
import { downloadableExport, exportFile, latestDataExport, requestDataExport, type DataExport } from "../domain/accounts/data-export";
import { publicOrigin } from "../domain/accounts/links";
import type { DataExportJob } from "../jobs/data-export";
import { requireMember, memberOf } from "./context";
import { sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";

function statusOf(row: DataExport | null, now = new Date()): DataExportStatus {
  if (!row) return { status: "none", requested_at: null, expires_at: null, token: null };
  const ready = row.status === "ready" && row.expiresAt !== null && row.expiresAt > now;
  return {
    status: row.status === "ready" && !ready ? "failed" : row.status,
    requested_at: row.requestedAt.toISOString(),
    expires_at: ready ? row.expiresAt!.toISOString() : null,
    token: ready ? row.token : null,
  };
}

/** Data export (contract/data-export.ts): ask, see the latest, download one's own zip. */
export function dataExportRoutes(deps: { db: Db; dataDir: string; limit: ClientLimiter; job: DataExportJob; publicUrl: string }): Router {
  const { db } = deps;
  const router = Router();
  const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");
  const origin = (_req: Request, res: Response) => publicOrigin(deps.publicUrl, res.locals.site.domain);

  router.post(
    "/api/dataexport.php",
    requireMember,
    deps.limit("data_export", sessionMember),
    handle(async (req, res) => {
      const row = await requestDataExport(db, memberOf(res).userId, origin(req, res));
      void deps.job.kick();
      noStore(res).status(202).json(statusOf(row));
    }),
  );

  router.get(
    "/api/dataexport.php",
    requireMember,
    handle(async (_req, res) => {
      noStore(res).json(statusOf(await latestDataExport(db, memberOf(res).userId)));
    }),
  );

  router.get(
    "/api/dataexport-file.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, DataExportFileQuery, req.query);
      if (!query) return;
      const row = await downloadableExport(db, memberOf(res).userId, query.token);
      if (!row) return sendError(res, "not_found");
      const stream = createReadStream(exportFile(deps.dataDir, row.token));
      stream.once("error", () => {
        if (!res.headersSent) sendError(res, "not_found");
        else res.destroy();
      });
      stream.once("open", () => {
        noStore(res).set({
          "Content-Type": "application/zip",
          "Content-Disposition": `attachment; filename="${res.locals.site.domain.replace(/[^\w.-]/g, "")}-data-${row.requestedAt.toISOString().slice(0, 10)}.zip"`,
        });
        stream.pipe(res);
      });
    }),
  );

  return router;
}
