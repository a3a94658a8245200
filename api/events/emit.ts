import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { memberEvents } from "../db/schema";

/** The NOTIFY channel of the event bus: its payload is event ids only, comma-separated (listeners read the rows). */
export const eventChannel = "member_events";

/** The advisory lock that orders event ids by commit (emitEvents); any constant no other lock uses. */
const eventsLockKey = 0x6d657674;

export type NewMemberEvent = typeof memberEvents.$inferInsert;

/** The events a member away from the site hears of by web push (api/jobs/push.ts). */
export const pushedEventKinds = ["message", "like", "match"] as const;

/**
 * Records events for their recipients and announces them on the bus. Call it inside the transaction of
 * what caused them: the rows and the notification become visible together, at commit, or not at all.
 *
 * A message, like or match from another member also queues a web push (table push_jobs, one row per
 * subscription) when the recipient is away (as isAway in ./hub.ts: no stream heartbeat lately, or the
 * page hidden) and has a subscription. It is the same statement as the NOTIFY (a data-modifying WITH runs
 * whether or not the outer query reads it), so the push, the event and the notification commit together;
 * the NOTIFY also wakes the push worker. Nothing is sent here.
 */
export async function emitEvents(tx: Pick<Db, "insert" | "execute">, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Event ids in commit order: a serial id is taken at insert, so two transactions could otherwise commit
  // (and be announced) out of id order, and a stream that already wrote the higher id, or a reconnect
  // resuming after it, would never deliver the lower one. Held to commit; only the tail of the cause waits.
  await tx.execute(sql`select pg_advisory_xact_lock(${eventsLockKey})`);
  const rows = await tx.insert(memberEvents).values(events).returning({ id: memberEvents.id });
  const ids = rows.map((r) => r.id);
  const notify = sql`select pg_notify(${eventChannel}, ${ids.join(",")})`;
  const pushable = events.some((e) => (pushedEventKinds as readonly string[]).includes(e.kind) && e.fromProfileId != null && e.fromProfileId !== e.profileId);
  if (!pushable) {
    await tx.execute(notify);
    return;
  }
  const kinds = sql.join(
    pushedEventKinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const eventIds = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(sql`
    with queued as (
      insert into push_jobs (event_id, subscription_id)
      select e.id, s.id
      from member_events e
      join profiles p on p.id = e.profile_id
      join push_subscriptions s on s.user_id = p.user_id
      where e.id in (${eventIds})
        and e.kind in (${kinds})
        and e.from_profile_id is not null and e.from_profile_id <> e.profile_id
        and not exists (
          select 1 from member_presence mp
          where mp.profile_id = e.profile_id and not mp.hidden and mp.stream_until >= now()
        )
    )
    ${notify}`);
}

/** emitEvents in a transaction of its own, for a cause that changed nothing else. */
export async function emitEventsNow(db: Db, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.transaction((tx) => emitEvents(tx, events));
}
