import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { memberEvents } from "../db/schema";

/*
 * The channels and the pushed kinds are written in SQL too (emit_member_events, record_member_events);
 * tests/api/live-events.test.ts checks that the database's functions name the same.
 */

/**
 * The NOTIFY channel of the event bus (emit_member_events names it too): its payload is "event id:profile id" pairs,
 * comma-separated (listeners read the rows of members with a stream open there).
 */
export const eventChannel = "member_events";

/** The NOTIFY channel (emit_member_events names it too) that wakes the push workers (api/jobs/push.ts) when a push was queued. */
export const pushChannel = "push_jobs";

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
 * page hidden) and has a subscription. Nothing is sent here; a NOTIFY on pushChannel wakes the push worker.
 *
 * One statement, one round trip to the database: the SQL function emit_member_events (api/db/functions/
 * emit_member_events.sql and record_member_events.sql, ADRs 020 and 023) takes the recipients' locks, writes the rows and the pushes
 * and sends the NOTIFY. A chat send (send_message) writes its events the same way but announces them after its
 * commit (api/events/announce.ts). Event ids must commit in id order per recipient (a stream, or a reconnect resuming after an id, reads one
 * member's events: api/events/hub.ts), so the serial ids are taken under a transaction-long advisory lock per
 * recipient, in profile order (no deadlock between two emitters): senders to different members do not wait for
 * each other, and the locks are held only from here to the commit that follows. The kinds it pushes are
 * pushedEventKinds, written there too.
 */
export async function emitEvents(tx: Pick<Db, "execute">, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({
    profile_id: e.profileId,
    kind: e.kind,
    from_profile_id: e.fromProfileId ?? null,
    conversation_id: e.conversationId ?? null,
    message_id: e.messageId ?? null,
  }));
  await tx.execute(sql`select emit_member_events(${JSON.stringify(rows)}::jsonb)`);
}

/** emitEvents in a transaction of its own, for a cause that changed nothing else. */
export async function emitEventsNow(db: Db, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.transaction((tx) => emitEvents(tx, events));
}
