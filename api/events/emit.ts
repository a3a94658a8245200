import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { memberEvents } from "../db/schema";

/** The NOTIFY channel of the event bus: its payload is event ids only, comma-separated (listeners read the rows). */
export const eventChannel = "member_events";

/** The advisory locks (one per recipient: this key and the profile id) that order a member's event ids by commit (emitEvents). */
const eventsLockKey = 0x6d657674;

export type NewMemberEvent = typeof memberEvents.$inferInsert;

/** The events a member away from the site hears of by web push (api/jobs/push.ts). */
export const pushedEventKinds = ["message", "like", "match"] as const;

/**
 * Records events for their recipients and announces them on the bus. Call it inside the transaction of
 * what caused them, as its last statement: the rows and the notification become visible together, at commit,
 * or not at all.
 *
 * A message, like or match from another member also queues a web push (table push_jobs, one row per
 * subscription) when the recipient is away (as isAway in ./hub.ts: no stream heartbeat lately, or the
 * page hidden) and has a subscription. Nothing is sent here; the NOTIFY also wakes the push worker.
 *
 * One statement, one round trip to the database: the recipients' locks, the rows, the pushes and the NOTIFY.
 * Event ids must commit in id order per recipient (a stream, or a reconnect resuming after an id, reads one
 * member's events: api/events/hub.ts), so the serial ids are taken under a transaction-long advisory lock per
 * recipient, in profile order (no deadlock between two emitters): senders to different members do not wait for
 * each other, and the locks are held only from here to the commit that follows.
 */
export async function emitEvents(tx: Pick<Db, "execute">, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  const recipients = [...new Set(events.map((e) => e.profileId))].sort((a, b) => a - b);
  const locks = sql.join(
    recipients.map((id) => sql`(${id}::int)`),
    sql`, `,
  );
  const rows = sql.join(
    events.map((e) => sql`(${e.profileId}::int, ${e.kind}::text, ${e.fromProfileId ?? null}::int, ${e.conversationId ?? null}::int, ${e.messageId ?? null}::int)`),
    sql`, `,
  );
  const pushable = events.some((e) => (pushedEventKinds as readonly string[]).includes(e.kind) && e.fromProfileId != null && e.fromProfileId !== e.profileId);
  const kinds = sql.join(
    pushedEventKinds.map((k) => sql`${k}`),
    sql`, `,
  );
  // A data-modifying WITH runs whether or not the outer query reads it; the insert reads `locked`, so its ids
  // are taken after the locks are.
  const queuePushes = sql`,
    queued as (
      insert into push_jobs (event_id, subscription_id)
      select e.id, s.id
      from inserted e
      join profiles p on p.id = e.profile_id
      join push_subscriptions s on s.user_id = p.user_id
      where e.kind in (${kinds})
        and e.from_profile_id is not null and e.from_profile_id <> e.profile_id
        and not exists (
          select 1 from member_presence mp
          where mp.profile_id = e.profile_id and not mp.hidden and mp.stream_until >= now()
        )
    )`;
  await tx.execute(sql`
    with locked as (
      select count(pg_advisory_xact_lock(${eventsLockKey}, r.id)) as n
      from (select id from (values ${locks}) as v(id) order by id) r
    ),
    inserted as (
      insert into member_events (profile_id, kind, from_profile_id, conversation_id, message_id)
      select v.profile_id, v.kind, v.from_profile_id, v.conversation_id, v.message_id
      from (values ${rows}) as v(profile_id, kind, from_profile_id, conversation_id, message_id)
      cross join locked
      where locked.n >= 0
      returning id, profile_id, kind, from_profile_id
    )${pushable ? queuePushes : sql``}
    select pg_notify(${eventChannel}, (select string_agg(id::text, ',' order by id) from inserted))`);
}

/** emitEvents in a transaction of its own, for a cause that changed nothing else. */
export async function emitEventsNow(db: Db, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.transaction((tx) => emitEvents(tx, events));
}
