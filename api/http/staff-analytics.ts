import { eq } from "drizzle-orm";
import { AnalyticsQuery, type AnalyticsResponse } from "#contract/staff-analytics";
import { endpoints } from "#contract/endpoints/index";
import type { Db } from "../db/client";
import { sites } from "../db/schema";
import { analyticsReport } from "../domain/analytics/report";
import { staffMay } from "../domain/staff/permissions";
import type { StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";
import { servesEverySite } from "#contract/staff-permissions";

/** GET /api/staff/analytics.php (admins, `analytics.read`): the owners' analytics of one site or every site (docs/staff.md, Analytics). */
export function staffAnalyticsRoutes(deps: { db: Db }) {
  const { db } = deps;
  return ({ route, staffOf }: StaffRouteKit) => {
    route(endpoints.staffAnalytics, async (req, res) => {
      const query = parseInput(res, AnalyticsQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      if (query.site !== undefined) {
        const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, query.site)).limit(1);
        if (!site || !staffMay(staff, "analytics.read", site.id)) return sendError(res, "not_found");
      } else if (!staffMay(staff, "analytics.read", null) || !servesEverySite(staff.role)) {
        return sendError(res, "forbidden");
      }
      const report: AnalyticsResponse = await analyticsReport(db, { siteId: query.site ?? null }, query);
      res.set("Cache-Control", "private, no-store").json(report);
    });
  };
}
