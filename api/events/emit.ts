import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { memberEvents } from "../db/schema";

/** The NOTIFY channel of the event bus: its payload is event ids only, comma-separated (listeners read the rows). */
export const eventChannel = "member_events";

export type NewMemberEvent = typeof memberEvents.$inferInsert;

/**
 * Records events for their recipients and announces them on the bus. Call it inside the transaction of
 * what caused them: the rows and the notification become visible together, at commit, or not at all.
 */
export async function emitEvents(tx: Pick<Db, "insert" | "execute">, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = await tx.insert(memberEvents).values(events).returning({ id: memberEvents.id });
  await tx.execute(sql`select pg_notify(${eventChannel}, ${rows.map((r) => r.id).join(",")})`);
}

/** emitEvents in a transaction of its own, for a cause that changed nothing else. */
export async function emitEventsNow(db: Db, events: NewMemberEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.transaction((tx) => emitEvents(tx, events));
}
