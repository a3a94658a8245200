import { and, asc, eq, gt, gte, inArray, isNull, ne, notInArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../../db/client";
import { keptFor } from "../kept-for";
import { queueCountCap } from "#contract/staff-moderation";
import { camClicks, dataExports, messages, payments, photos, profiles, pushJobs, reports, sites, users } from "../../db/schema";

/** Midnight UTC of a time's day: the dashboard's "today". */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export type SiteFigures = {
  id: number;
  domain: string;
  name: string;
  signupsToday: number;
  payingMembers: number;
  revenueToday: { currency: string; amount: number }[];
  messagesToday: number;
  /** docs/product.md §1 live-cam tile clicks today (the same count `npm run report -- cam` reads). */
  camClicksToday: number;
  /** Open queues: photos waiting for review, reports new or in progress; each up to queueCountCap (that many or more). */
  photoQueue: number;
  reportQueue: number;
};

/**
 * The staff dashboard's figures per site: today's signups, the paying members, today's revenue per
 * currency (payments paid since midnight UTC, in minor units) and today's messages. `siteIds` null: every site.
 */
export async function dashboardFigures(db: Db, siteIds: number[] | null, now = new Date()): Promise<SiteFigures[]> {
  const since = startOfUtcDay(now);
  const onSites = (column: Parameters<typeof inArray>[0]): SQL | undefined => (siteIds ? inArray(column, siteIds.length ? siteIds : [0]) : undefined);
  const [siteRows, signups, paying, revenue, sent, photoQueue, reportQueue, camToday] = await Promise.all([
    db.select({ id: sites.id, domain: sites.domain, name: sites.name }).from(sites).where(onSites(sites.id)).orderBy(asc(sites.id)),
    db
      .select({ siteId: users.siteId, n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(gte(users.signupDate, since), onSites(users.siteId)))
      .groupBy(users.siteId),
    dayFigures.get(`${siteIds?.join(",") ?? "all"}@${since.toISOString()}`, () => readDayFigures(db, onSites, since)).then((figures) => figures.paying),
    db
      .select({ siteId: payments.siteId, currency: payments.currency, amount: sql<number>`sum(${payments.amount})::float8` })
      .from(payments)
      .where(and(eq(payments.status, "paid"), gte(payments.paidAt, since), onSites(payments.siteId)))
      .groupBy(payments.siteId, payments.currency)
      .orderBy(asc(payments.currency)),
    dayFigures.get(`${siteIds?.join(",") ?? "all"}@${since.toISOString()}`, () => readDayFigures(db, onSites, since)).then((figures) => figures.sent),
    // The photo and report queues, counted per site, each up to queueCountCap (photos_site_review_queue_idx, reports_queue_idx).
    db
      .select({ siteId: sites.id, n: boundedCount(db.select({ one: sql`1` }).from(photos).where(and(unreviewed, eq(photos.siteId, outerSiteId)))) })
      .from(sites)
      .where(onSites(sites.id)),
    db
      .select({ siteId: sites.id, n: boundedCount(db.select({ one: sql`1` }).from(reports).where(and(inArray(reports.status, ["new", "in_progress"]), eq(reports.siteId, outerSiteId)))) })
      .from(sites)
      .where(onSites(sites.id)),
    db
      .select({ siteId: camClicks.siteId, n: camClicks.clicks })
      .from(camClicks)
      .where(and(eq(camClicks.day, since.toISOString().slice(0, 10)), onSites(camClicks.siteId))),
  ]);
  const count = (rows: { siteId: number; n: number }[], siteId: number) => rows.find((row) => row.siteId === siteId)?.n ?? 0;
  return siteRows.map((site) => ({
    ...site,
    signupsToday: count(signups, site.id),
    payingMembers: count(paying, site.id),
    revenueToday: revenue.filter((row) => row.siteId === site.id).map((row) => ({ currency: row.currency, amount: row.amount })),
    messagesToday: count(sent, site.id),
    camClicksToday: count(camToday, site.id),
    photoQueue: count(photoQueue, site.id),
    reportQueue: count(reportQueue, site.id),
  }));
}

/** A photo no moderator has looked at yet (api/domain/staff/photo-review.ts photoQueue). */
const unreviewed = and(isNull(photos.reviewedAt), ne(photos.status, "rejected"));

/** The outer query's site, inside a correlated subquery (a one-table query leaves its columns unqualified). */
const outerSiteId = sql`${sites}.${sql.identifier("id")}`;

/** How many rows a subquery has, up to queueCountCap: it reads at most that many. */
function boundedCount(rows: { limit: (n: number) => SQLWrapper }): SQL<number> {
  return sql<number>`(select count(*) from (${rows.limit(queueCountCap)}) counted)::int`;
}

type SiteCounts = { siteId: number; n: number }[];

/**
 * The paying members and the day's messages take every paying member and every message of the day to count (a
 * hundred thousand rows of each on a large site): kept a minute per api instance (docs/staff.md, the dashboard).
 */
const dayFigures = keptFor<{ paying: SiteCounts; sent: SiteCounts }>(60_000);

async function readDayFigures(db: Db, onSites: (column: Parameters<typeof inArray>[0]) => SQL | undefined, since: Date): Promise<{ paying: SiteCounts; sent: SiteCounts }> {
  const [paying, sent] = await Promise.all([
    db
      .select({ siteId: users.siteId, n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.paidUser, true), notInArray(users.status, ["deleted", "erased"]), onSites(users.siteId)))
      .groupBy(users.siteId),
    db
      .select({ siteId: profiles.siteId, n: sql<number>`count(*)::int` })
      .from(messages)
      .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
      .where(and(gte(messages.createdAt, since), onSites(profiles.siteId)))
      .groupBy(profiles.siteId),
  ]);
  return { paying, sent };
}

/**
 * The background jobs' trouble (the dashboard): push deliveries waiting to be tried again after a failure, and data
 * exports that failed today. Jobs keep no other record of their runs (their failures are in the log).
 */
export async function jobTrouble(db: Db, now = new Date()): Promise<{ pushRetrying: number; exportsFailedToday: number }> {
  const [[push], [exports]] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(pushJobs).where(gt(pushJobs.attempts, 0)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(dataExports)
      .where(and(eq(dataExports.status, "failed"), gte(dataExports.requestedAt, startOfUtcDay(now)))),
  ]);
  return { pushRetrying: push?.n ?? 0, exportsFailedToday: exports?.n ?? 0 };
}
