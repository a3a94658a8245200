import { Router } from "express";
import type { Db } from "../db/client";
import { ReportRequest, type ReportResponse } from "#contract/staff-moderation";
import type { z } from "zod";
import { createMemberReport } from "../domain/staff/reports";
import { memberOf, requireMember } from "./context";
import { sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";

/**
 * A member reports a profile or a message (POST /api/report.php, contract/staff-moderation.ts); the
 * report waits in the staff's queue at /staff/reports. Ten a day per member (the `report` client limit).
 */
export function reportRoutes(deps: { db: Db; limit: ClientLimiter }): Router {
  const router = Router();
  router.post(
    "/api/report.php",
    requireMember,
    deps.limit("report", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, ReportRequest, req.body);
      if (!body) return;
      const member = memberOf(res);
      const reportId = await createMemberReport(deps.db, { userId: member.userId, profileId: member.profileId, siteId: res.locals.site.id }, body);
      if (reportId === null) return sendError(res, "not_found");
      res
        .set("Cache-Control", "no-store")
        .status(201)
        .json({ ok: true, report_id: reportId } satisfies z.infer<typeof ReportResponse>);
    }),
  );
  return router;
}
