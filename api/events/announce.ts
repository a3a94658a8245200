import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { eventChannel, pushChannel } from "./emit";

/** A NOTIFY payload must stay under 8000 bytes: announcements are split at this length. */
const payloadMax = 7900;

/**
 * Announces a chat send's events after its commit (ADR 023). A NOTIFY inside a transaction holds one lock for the
 * whole PostgreSQL cluster from just before the commit until the commit is on disk, so sends that NOTIFY wait for
 * each other's disk writes: on this machine a send's transaction made 1,413 commits a second without its NOTIFY and
 * 884 with it (50 clients). send_message therefore answers what to announce (r_announce: "event id:profile id"
 * pairs) and whether a push was queued, and the api announces here, after the commit.
 *
 * What arrives in one turn of the event loop goes in one statement (several sends, one NOTIFY each channel), in a
 * transaction of its own with synchronous_commit off: an announcement is a wake-up call, not data (the events are
 * committed rows), so it need not wait for the disk. One statement at a time, in the order announced.
 *
 * If an announcement is lost (this process ends between the commit and the NOTIFY, or the statement fails), the
 * events stay in the database: a stream receives them with its member's next announced event or when it reconnects
 * (api/events/hub.ts), and the push worker finds queued pushes by polling (api/jobs/push.ts).
 */
export class Announcer {
  private events: string[] = [];
  private pushed = false;
  private scheduled = false;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Pick<Db, "execute">,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  announce(events: string | null, pushed: boolean): void {
    if (events) this.events.push(events);
    if (pushed) this.pushed = true;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.tail = this.tail.then(() => this.flush());
    });
  }

  /** Resolves when everything announced so far has been sent (tests). */
  settled(): Promise<void> {
    return new Promise((resolve) => setImmediate(() => void this.tail.then(resolve)));
  }

  private async flush(): Promise<void> {
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const payload of joinUpTo(this.events.splice(0), payloadMax)) {
      channels.push(eventChannel);
      payloads.push(payload);
    }
    if (this.pushed) {
      channels.push(pushChannel);
      payloads.push("");
      this.pushed = false;
    }
    if (channels.length === 0) return;
    try {
      await this.db.execute(
        sql`select pg_notify(n.channel, n.payload) from unnest(${sql.param(channels)}::text[], ${sql.param(payloads)}::text[]) as n(channel, payload) where set_config('synchronous_commit', 'off', true) is not null`,
      );
    } catch (error) {
      this.onError(error);
    }
  }
}

/** `parts` joined with commas into as few strings as fit `max` characters each (a part is never split). */
export function joinUpTo(parts: string[], max: number): string[] {
  const joined: string[] = [];
  let current = "";
  for (const part of parts) {
    if (current && current.length + 1 + part.length > max) {
      joined.push(current);
      current = "";
    }
    current = current ? `${current},${part}` : part;
  }
  if (current) joined.push(current);
  return joined;
}

const announcers = new WeakMap<object, Announcer>();

/**
 * The announcer of a database handle: one per process and database, so a process's announcements share statements.
 * The api app creates it with its logger (api/app.ts); `onError` of later calls is ignored.
 */
export function announcerFor(db: Db, onError?: (error: unknown) => void): Announcer {
  let found = announcers.get(db);
  if (!found) {
    found = new Announcer(db, onError);
    announcers.set(db, found);
  }
  return found;
}
