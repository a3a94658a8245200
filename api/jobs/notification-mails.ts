import { and, eq, gt, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../db/client";
import { memberEvents, notificationMails, profiles, sites, users } from "../db/schema";
import { listableTo } from "../domain/visibility";
import { unsubscribeUrl } from "../domain/notifications";
import { publicOrigin } from "../domain/accounts/links";
import { isLocale, type Locale } from "#contract/locales";
import type { Mailer, NotificationMailKind } from "../services/mail";
import { recordJobRun } from "../metrics";
import { scheduleJob } from "./schedule";

/*
 * Notification mails: a new message, like or match is mailed to a member who is away, at most one
 * mail per kind per `intervalMinutes`, only to an active member whose notifications_disabled is empty and
 * whose switch for the kind's e-mail is on (ADR 011). The events are the rows of member_events (the same the
 * live stream and web push read); notification_mails keeps, per member and kind, the newest event mailed
 * about, so nothing is mailed twice. A mail is claimed with one conditional upsert before it is sent, so N
 * api instances running this job never send the same mail twice. A failed send is logged and not retried.
 */

const mailedKinds = ["message", "like", "match"] as const;
type MailedKind = (typeof mailedKinds)[number];
const mailKindOf: Record<MailedKind, NotificationMailKind> = { message: "notify_message", like: "notify_like", match: "notify_match" };
/** Events older than this are not mailed about (a member back after a week needs no mail about last week). */
const maxAgeHours = 24;

export type NotificationMailJob = {
  /** Mails what is due now; returns how many mails were sent. */
  runOnce: () => Promise<number>;
  stop: () => void;
};

export type NotificationMailOptions = {
  db: Db;
  mailer: Mailer;
  logger: Logger;
  unsubscribeKey: Buffer;
  /** Origin template of links (the configured PUBLIC_URL, api/config.ts). */
  publicUrl: string;
  intervalMinutes: number;
  /** Runs every jobIntervalsMs["notification-mails"] times this (the api process); tests call runOnce. */
  periodic?: boolean;
  intervalScale?: number;
  batchSize?: number;
};

export function startNotificationMailJob(options: NotificationMailOptions): NotificationMailJob {
  const log = options.logger.child({ job: "notification-mails" });
  let running: Promise<number> | null = null;
  const runOnce = (): Promise<number> => {
    running ??= recordJobRun("notification-mails", () => sendDue(options, log)).finally(() => {
      running = null;
    });
    return running;
  };
  if (!options.periodic) return { runOnce, stop: () => undefined };
  // Once per due time across the api instances (api/jobs/schedule.ts); the claim per mail stays the last word.
  const scheduled = scheduleJob(options.db, { job: "notification-mails", intervalScale: options.intervalScale, logger: log }, async () => {
    await runOnce();
  });
  return { runOnce, stop: scheduled.stop };
}

/** Counted up to this many for the backlog: the count stays as cheap as a pass of the job. */
const backlogCap = 1000;

/**
 * Mails due now, per member and kind, up to 1000 (job_backlog, api/http/metrics.ts): what the next passes will send,
 * unless a member comes back to the site or reads the message first.
 */
export async function notificationMailBacklog(db: Db, intervalMinutes: number): Promise<number> {
  const due = dueMails(db, intervalMinutes).limit(backlogCap).as("due");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(due);
  return row?.n ?? 0;
}

async function sendDue(options: NotificationMailOptions, log: Logger): Promise<number> {
  const due = await dueMails(options.db, options.intervalMinutes).limit(options.batchSize ?? 100);
  let sent = 0;
  for (const row of due) {
    try {
      if (await mailOne(options, log, { ...row, kind: row.kind as MailedKind })) sent += 1;
    } catch (error) {
      log.error({ err: error, userId: row.userId, event: row.kind }, "notification mail failed");
    }
  }
  return sent;
}

/** Per member and kind, the newest event a mail is due about now (the rules above). */
function dueMails(db: Db, minutes: number) {
  const switchOf = sql`(case ${memberEvents.kind} when 'message' then 'messages' when 'like' then 'likes' else 'matches' end) || ':email'`;
  return db
    .select({ userId: users.id, profileId: memberEvents.profileId, kind: memberEvents.kind, lastEventId: sql<number>`max(${memberEvents.id})`.mapWith(Number) })
    .from(memberEvents)
    .innerJoin(profiles, eq(profiles.id, memberEvents.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(notificationMails, and(eq(notificationMails.userId, users.id), sql`${notificationMails.kind} = ${memberEvents.kind}`))
    .where(
      and(
        inArray(memberEvents.kind, [...mailedKinds]),
        isNotNull(memberEvents.fromProfileId),
        ne(memberEvents.fromProfileId, memberEvents.profileId),
        gt(memberEvents.createdAt, sql`now() - make_interval(hours => ${maxAgeHours})`),
        sql`${memberEvents.id} > coalesce(${notificationMails.lastEventId}, 0)`,
        sql`(${notificationMails.sentAt} is null or ${notificationMails.sentAt} < now() - make_interval(mins => ${minutes}))`,
        // Settings: an active member, no reason to stop mail (docs/product.md §3), the kind's e-mail switch on.
        eq(users.status, "active"),
        sql`${users.notificationsDisabled} = '[]'::jsonb`,
        sql`not (${users.notificationSettings} @> jsonb_build_array(${switchOf}))`,
        // Away, as for web push: a member on the site sees it there.
        sql`not exists (select 1 from member_presence mp where mp.profile_id = ${memberEvents.profileId} and not mp.hidden and mp.stream_until >= now())`,
        // A message the member has read meanwhile (on another device) is no news.
        sql`(${memberEvents.kind} <> 'message' or exists (select 1 from conversation_members cm where cm.conversation_id = ${memberEvents.conversationId} and cm.profile_id = ${memberEvents.profileId} and cm.unread_count > 0))`,
      ),
    )
    .groupBy(users.id, memberEvents.profileId, memberEvents.kind)
    .$dynamic();
}

async function mailOne(options: NotificationMailOptions, log: Logger, row: { userId: number; profileId: number; kind: MailedKind; lastEventId: number }): Promise<boolean> {
  const { db } = options;
  // The claim: this instance mails about events up to lastEventId, unless another one just did.
  const claimed = await db
    .insert(notificationMails)
    .values({ userId: row.userId, kind: row.kind, lastEventId: row.lastEventId })
    .onConflictDoUpdate({
      target: [notificationMails.userId, notificationMails.kind],
      set: { lastEventId: sql`excluded.last_event_id`, sentAt: sql`now()` },
      setWhere: sql`${notificationMails.lastEventId} < excluded.last_event_id and ${notificationMails.sentAt} < now() - make_interval(mins => ${options.intervalMinutes})`,
    })
    .returning({ userId: notificationMails.userId });
  if (claimed.length === 0) return false;

  const [event] = await db.select({ from: memberEvents.fromProfileId, conversationId: memberEvents.conversationId }).from(memberEvents).where(eq(memberEvents.id, row.lastEventId));
  // The sender may have blocked the member or turned invisible since: no mail naming them.
  const [sender] = event?.from ? await db.select({ name: profiles.name }).from(profiles).where(and(eq(profiles.id, event.from), listableTo(row.profileId))) : [];
  const [member] = await db
    .select({ email: users.email, language: users.language, name: profiles.name, siteId: sites.id, siteName: sites.name, mailName: sites.mailName, domain: sites.domain })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(eq(users.id, row.userId));
  if (!event || !sender || !member) return false;

  const language: Locale = isLocale(member.language) ? member.language : "en";
  const origin = publicOrigin(options.publicUrl, member.domain);
  const prefix = language === "en" ? "" : `/${language}`;
  const page = row.kind === "message" ? `/chats/${event.conversationId ?? ""}` : row.kind === "like" ? "/likes/received" : "/likes/matches";
  return options.mailer.send(
    {
      kind: mailKindOf[row.kind],
      to: member.email,
      language,
      name: member.name,
      site: { name: member.siteName, mailName: member.mailName, domain: member.domain },
      link: `${origin}${prefix}${page}`,
      sender: sender.name,
      settingsLink: `${origin}${prefix}/notifications`,
      userId: row.userId,
      unsubscribeUrl: unsubscribeUrl(origin, options.unsubscribeKey, member.siteId, row.userId),
    },
    log,
  );
}
