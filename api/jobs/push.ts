import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import i18next from "i18next";
import type { Logger } from "pino";
import type { Db, Listen } from "../db/client";
import { memberEvents, messages, profiles, pushJobs, pushSubscriptions, sites, users } from "../db/schema";
import { pushChannel } from "../events/emit";
import { listableTo } from "../domain/visibility";
import { isLocale, locales, type Locale } from "#contract/locales";
import type { NotificationKind } from "#contract/notifications";
import { allows, kindOfEvent } from "../domain/notifications";
import { padPrivateKey, vapidSubject, type PushPayload, type PushSender, type VapidKeys } from "../services/push";
import { countPush, recordJobRun } from "../metrics";
import { projectPath } from "../project-files";

/*
 * The web push worker. api/events/emit.ts queues a row in push_jobs, in the transaction of a
 * message, like or match, for each subscription of a recipient who is away. This worker claims due rows
 * with FOR UPDATE SKIP LOCKED (N api instances share the queue; PGlite and PostgreSQL alike), checks again
 * that the push is still wanted, sends it through the PushSender (api/services/push.ts) and:
 * - sent: deletes the job;
 * - 404/410 from the push service: deletes the subscription (its other jobs go with it);
 * - any other failure: tries again after a backoff, up to `maxAttempts` attempts, then gives up.
 * A claim moves the job's run_after a lease ahead, so a worker that dies mid-send leaves it to another.
 * It wakes every `pollMs` and on every NOTIFY on pushChannel, which commits with the jobs it announces (a NOTIFY of
 * every event would wake it for the many that queue no push: typing, reads, members who are present).
 */

export type PushWorkerOptions = {
  db: Db;
  logger: Logger;
  sender: PushSender;
  /** The pair for sites without their own (PUSH_KEYLESS_SITES), or null: such sites do not push. */
  deploymentKeys: VapidKeys | null;
  /** VAPID_SUBJECT; unset: mailto:<the site's support address>. */
  subject?: string;
  /** The database's LISTEN, to wake at once when a job is queued; without it the worker polls only. */
  listen?: Listen;
  pollMs?: number;
  batchSize?: number;
  maxAttempts?: number;
};

export type PushWorker = {
  /** Claims and handles one batch of due jobs; returns how many were claimed. */
  runOnce: () => Promise<number>;
  stop: () => Promise<void>;
};

/** Waits after the 1st, 2nd, ... failed attempt. */
const backoffSeconds = [10, 60, 300, 1800];
const leaseSeconds = 120;
const ttlSeconds = 24 * 60 * 60;
const bodyChars = 120;

const localesDir = projectPath("locales");
// The push texts live in the api's mail namespace (locales/<lng>/mail.json, section "push").
const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(locales.map((lng) => [lng, { mail: JSON.parse(readFileSync(path.join(localesDir, lng, "mail.json"), "utf8")) }])),
  lng: "en",
  fallbackLng: "en",
  ns: ["mail"],
  defaultNS: "mail",
  initImmediate: false,
  interpolation: { escapeValue: false },
});

type Job = Awaited<ReturnType<typeof loadJobs>>[number];

export function startPushWorker(options: PushWorkerOptions): PushWorker {
  const log = options.logger.child({ job: "push" });
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let stopListening: (() => Promise<void>) | null = null;

  const runOnce = () => recordJobRun("push", () => handleBatch(options, log));

  /** One pass after another while batches come back full or a wake-up came in meanwhile. */
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          const claimed = await runOnce();
          if (claimed >= (options.batchSize ?? 20)) again = true;
        } while (again && !stopped);
      } catch (error) {
        log.error({ err: error }, "push worker pass failed");
      } finally {
        running = null;
      }
    })();
  };

  const tick = () => {
    kick();
    if (!stopped) {
      timer = setTimeout(tick, options.pollMs ?? 1000);
      timer.unref();
    }
  };
  tick();
  if (options.listen) {
    options
      .listen(pushChannel, () => kick(), kick)
      .then((stop) => {
        if (stopped) void stop();
        else stopListening = stop;
      })
      .catch((error: unknown) => log.warn({ err: error }, "push worker polls only: the event bus did not start"));
  }

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await stopListening?.();
      await running;
    },
  };
}

/** The push queue's length (job_backlog, api/http/metrics.ts): jobs waiting to be sent, due now or after a backoff. */
export async function pushBacklog(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(pushJobs);
  return row?.n ?? 0;
}

/** Claims due jobs (skipping rows another worker holds) and handles them; returns how many were claimed. */
async function handleBatch(options: PushWorkerOptions, log: Logger): Promise<number> {
  const { db } = options;
  const due = db
    .select({ id: pushJobs.id })
    .from(pushJobs)
    .where(sql`${pushJobs.runAfter} <= now()`)
    .orderBy(pushJobs.runAfter, pushJobs.id)
    .limit(options.batchSize ?? 20)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(pushJobs)
    .set({ attempts: sql`${pushJobs.attempts} + 1`, runAfter: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(inArray(pushJobs.id, due))
    .returning({ id: pushJobs.id });
  if (claimed.length === 0) return 0;
  const jobs = await loadJobs(db, claimed.map((c) => c.id));
  await Promise.all(jobs.map((job) => handleJob(options, log, job).catch((error: unknown) => log.error({ err: error, pushJob: job.id }, "push job failed"))));
  return claimed.length;
}

/** Everything a claimed job needs, in one query: the event, the subscription, the recipient and their site. */
function loadJobs(db: Db, ids: number[]) {
  return db
    .select({
      id: pushJobs.id,
      attempts: pushJobs.attempts,
      kind: memberEvents.kind,
      recipient: memberEvents.profileId,
      from: memberEvents.fromProfileId,
      conversationId: memberEvents.conversationId,
      messageId: memberEvents.messageId,
      subscriptionId: pushSubscriptions.id,
      subscriber: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
      userId: users.id,
      userStatus: users.status,
      switchedOff: users.notificationSettings,
      language: users.language,
      site: { publicKey: sites.pushPublicKey, privateKey: sites.pushPrivateKey, supportEmail: sites.supportEmail, domain: sites.domain },
      // As isAway (api/events/hub.ts), now: a member back on the site meanwhile gets no notification.
      away: sql<boolean>`not exists (select 1 from member_presence mp where mp.profile_id = ${memberEvents.profileId} and not mp.hidden and mp.stream_until >= now())`,
    })
    .from(pushJobs)
    .innerJoin(memberEvents, eq(memberEvents.id, pushJobs.eventId))
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushJobs.subscriptionId))
    .innerJoin(profiles, eq(profiles.id, memberEvents.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(inArray(pushJobs.id, ids));
}

async function handleJob(options: PushWorkerOptions, log: Logger, job: Job): Promise<void> {
  const { db } = options;
  const drop = () => db.delete(pushJobs).where(eq(pushJobs.id, job.id));
  const keys = job.site.publicKey && job.site.privateKey ? { publicKey: job.site.publicKey, privateKey: padPrivateKey(job.site.privateKey) } : options.deploymentKeys;
  // Still wanted? The subscription may have moved to another member, the member may be back, gone, or
  // have blocked the sender (or the sender turned invisible) since the event.
  if (!keys || job.subscriber !== job.userId || !job.away || job.userStatus === "deleted" || job.userStatus === "erased" || job.from === null) return void (await drop());
  // The member's switch for this kind, as it is now.
  if (!pushWanted(job.kind, job.switchedOff)) return void (await drop());
  const payload = await payloadOf(db, job);
  if (!payload) return void (await drop());

  const outcome = await options.sender.send(
    { endpoint: job.endpoint, p256dh: job.p256dh, auth: job.auth },
    payload,
    { vapid: { ...keys, subject: vapidSubject(options.subject, job.site) }, ttlSeconds, urgency: job.kind === "message" ? "high" : "normal" },
  );
  countPush(outcome.kind);
  if (outcome.kind === "sent") {
    await drop();
    log.info({ pushJob: job.id, userId: job.userId, event: job.kind, status: outcome.status }, "push sent");
  } else if (outcome.kind === "gone") {
    // The browser unsubscribed or the subscription expired: forget it (its other queued pushes go with it).
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, job.subscriptionId));
    log.info({ pushJob: job.id, userId: job.userId, status: outcome.status }, "push subscription gone, removed");
  } else if (outcome.kind === "refused") {
    // Its host is (now) no public push service: never connected to, and forgotten (docs/security.md).
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, job.subscriptionId));
    log.warn({ pushJob: job.id, userId: job.userId, error: outcome.error }, "push endpoint refused, subscription removed");
  } else if (job.attempts >= (options.maxAttempts ?? backoffSeconds.length + 1)) {
    await drop();
    log.warn({ pushJob: job.id, userId: job.userId, status: outcome.status, error: outcome.error, attempts: job.attempts }, "push given up");
  } else {
    const wait = backoffSeconds[Math.min(job.attempts - 1, backoffSeconds.length - 1)] ?? 60;
    await db
      .update(pushJobs)
      .set({ runAfter: sql`now() + make_interval(secs => ${wait})` })
      .where(eq(pushJobs.id, job.id));
    log.warn({ pushJob: job.id, userId: job.userId, status: outcome.status, error: outcome.error, attempts: job.attempts, retryInSeconds: wait }, "push failed, will retry");
  }
}

/** Title and body in the recipient's language, naming the sender, and the page a click opens; null: not to be sent. */
async function payloadOf(db: Db, job: Job): Promise<PushPayload | null> {
  if (job.from === null) return null;
  const [sender] = await db
    .select({ name: profiles.name })
    .from(profiles)
    .where(and(eq(profiles.id, job.from), listableTo(job.recipient)));
  if (!sender) return null;
  const language: Locale = isLocale(job.language) ? job.language : "en";
  const t = i18n.getFixedT(language, "mail");
  const prefix = language === "en" ? "" : `/${language}`;
  const name = sender.name;
  if (job.kind === "message") {
    if (job.messageId === null || job.conversationId === null) return null;
    const [message] = await db.select({ kind: messages.kind, body: messages.body }).from(messages).where(eq(messages.id, job.messageId));
    if (!message) return null;
    const body = message.kind === "gif" || message.kind === "gift" || message.kind === "image" ? t(`push.message.${message.kind}`, { name }) : excerpt(message.body);
    return { title: t("push.message.title", { name }), body, url: `${prefix}/chats/${job.conversationId}`, tag: `chat-${job.conversationId}` };
  }
  if (job.kind === "like") return { title: t("push.like.title", { name }), body: t("push.like.body"), url: `${prefix}/likes/received`, tag: "likes" };
  if (job.kind === "match") return { title: t("push.match.title", { name }), body: t("push.match.body"), url: `${prefix}/likes/matches`, tag: `match-${job.from}` };
  return null;
}

/** Whether the member's push switch of the event's kind is on. */
export function pushWanted(kind: string, switchedOff: readonly string[]): boolean {
  const switchOf = (kindOfEvent as Record<string, NotificationKind | undefined>)[kind];
  return switchOf !== undefined && allows(switchedOff, switchOf, "push");
}

/** The start of a message, on one line. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length > bodyChars ? `${chars.slice(0, bodyChars - 1).join("")}…` : line;
}
