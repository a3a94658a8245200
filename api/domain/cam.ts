import { asc, between, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { camClicks, sites, users } from "../db/schema";
import { camLink, camLinkValues } from "#contract/cam";
import { csvText } from "#contract/csv";
import { isHttpsUrlOnItsHost } from "#contract/host";
import type { Tracking } from "#contract/account";
import type { Site } from "./sites";

/**
 * docs/product.md §1 live-cam tiles: a click is counted for the site and UTC day (one upsert) and answers the partner's
 * address with the tracking values: the member's own (kept at signup), else the visitor's (web's tracking cookie).
 */
export async function recordCamClick(db: Db, site: Pick<Site, "id" | "camTiles">, member: { userId: number } | null, visitor: Tracking | undefined, now = new Date()): Promise<string | null> {
  // A template saved before the host was fixed (placeholders in it) sends nobody anywhere.
  if (!site.camTiles || !isHttpsUrlOnItsHost(site.camTiles.link, camLinkValues)) return null;
  const day = now.toISOString().slice(0, 10);
  const [own] = member ? await db.select({ network: users.network, ref: users.ref, sub1: users.sub1, sub2: users.sub2, sub3: users.sub3 }).from(users).where(eq(users.id, member.userId)).limit(1) : [];
  await db
    .insert(camClicks)
    .values({ siteId: site.id, day, clicks: 1 })
    .onConflictDoUpdate({ target: [camClicks.siteId, camClicks.day], set: { clicks: sql`${camClicks.clicks} + 1` } });
  return camLink(site.camTiles.link, own ?? visitor ?? {});
}

export type CamClickRow = { day: string; site: string; clicks: number };

/** Clicks per UTC day and site from `from` to `to` (YYYY-MM-DD, both included), for `npm run report -- cam`. */
export async function camClicksReport(db: Db, from: string, to: string): Promise<CamClickRow[]> {
  const rows = await db
    .select({ day: camClicks.day, site: sites.name, clicks: camClicks.clicks })
    .from(camClicks)
    .innerJoin(sites, eq(sites.id, camClicks.siteId))
    .where(between(camClicks.day, from, to))
    .orderBy(asc(camClicks.day), asc(sites.name));
  return rows.map((row) => ({ day: String(row.day), site: row.site, clicks: row.clicks }));
}

/** The report as an aligned table, with a total line. */
export function camClicksTable(rows: CamClickRow[]): string {
  const width = Math.max(4, ...rows.map((row) => row.site.length));
  const lines = [`${"Day".padEnd(10)}  ${"Site".padEnd(width)}  Clicks`, ...rows.map((row) => `${row.day}  ${row.site.padEnd(width)}  ${String(row.clicks).padStart(6)}`)];
  lines.push(`${"Total".padEnd(10)}  ${"".padEnd(width)}  ${String(rows.reduce((sum, row) => sum + row.clicks, 0)).padStart(6)}`);
  return `${lines.join("\n")}\n`;
}

/** The report as CSV (day, site, clicks); a site name a spreadsheet would run as a formula gets a leading quote. */
export function camClicksCsv(rows: CamClickRow[]): string {
  return csvText([["day", "site", "clicks"], ...rows.map((row) => [row.day, row.site, row.clicks])]);
}
