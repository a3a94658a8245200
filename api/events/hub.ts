import type { Response } from "express";
import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db, Listen } from "../db/client";
import { memberEvents, memberPresence, messages, profiles } from "../db/schema";
import { heartbeatSeconds, type LiveEventKind } from "#contract/events";
import type { ChatMessage } from "#contract/chat";
import { toChatMessage } from "../domain/chat-media";
import { listableTo } from "../domain/visibility";
import { hashToken, liveSessionHashes } from "../domain/sessions";
import { eventChannel } from "./emit";

type EventRow = typeof memberEvents.$inferSelect;

/** One open stream of a member (a browser tab). */
type Stream = {
  profileId: number;
  siteId: number;
  /** The client address it came from (X-Client-IP through web): streams per address are capped. */
  clientIp: string;
  /** The session's token hash (the raw token is not kept): the heartbeat checks the session is still live. */
  tokenHash: string;
  res: Response;
  /** The last event id written to this stream; nothing at or below it is written again. */
  lastId: number;
  /** Events that arrived while the replay was being read: written after it, in order. */
  queue: EventRow[] | null;
};

/** How long a stream's heartbeat counts a member as present (a few heartbeats, so one late tick does not make them away). */
const presenceSeconds = heartbeatSeconds * 3;
const replayLimit = 500;
const keepDays = 3;

/**
 * Open streams one api instance keeps (docs/security.md): per member a few tabs and devices, per client
 * address a few members behind one household or office router. A new stream past a cap ends the oldest
 * one with `end` {reason: "too_many_streams"}; the browser then polls instead of reconnecting (app/features/chat/live-client.ts).
 */
export const defaultStreamCaps = { perMember: 5, perClient: 20 };
export type StreamCaps = typeof defaultStreamCaps;

/** The caps with CLIENT_LIMIT_SCALE applied to the per-address one, as to every client limit (the bench opens 500 streams from one address). */
export function streamCapsFor(scale: number): StreamCaps {
  return { perMember: defaultStreamCaps.perMember, perClient: Math.round(defaultStreamCaps.perClient * scale) };
}

/**
 * The api instance's open event streams (GET /api/events.php) and its end of the bus: a NOTIFY names new
 * event ids, the hub reads those rows and writes each to its recipient's streams here, checking again that
 * the other member is not blocked or invisible. Every 15 s a heartbeat comment keeps connections open, the
 * members' presence is extended, and streams whose session ended are closed.
 */
export class EventHub {
  private readonly streams = new Map<number, Set<Stream>>();
  /** The same streams by client address, oldest first (a Set keeps insertion order). */
  private readonly byClient = new Map<string, Set<Stream>>();
  private stopListening: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticks = 0;
  /** The tail of the delivery queue (see serial). */
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly secret: string,
    private readonly heartbeatMs = heartbeatSeconds * 1000,
    private readonly caps: StreamCaps = defaultStreamCaps,
  ) {}

  /** How many event streams this instance holds open (the staff dashboard). */
  openStreamCount(): number {
    let count = 0;
    for (const set of this.streams.values()) count += set.size;
    return count;
  }

  async start(listen: Listen): Promise<void> {
    this.stopListening = await listen(eventChannel, (payload) => void this.onNotify(payload), () => void this.resync());
    this.timer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const set of this.streams.values()) for (const stream of set) stream.res.end();
    this.streams.clear();
    this.byClient.clear();
    await this.stopListening?.();
  }

  /**
   * Runs deliveries one at a time, in the order the bus announced them: otherwise a later event whose
   * reads finish first is written first, and the earlier one then counts as written (its id is below the
   * stream's last) and is lost.
   */
  private serial(task: () => Promise<void>): Promise<void> {
    const run = this.delivering.then(task);
    this.delivering = run.catch(() => undefined);
    return run;
  }

  /** Open streams on this instance (tests and the bench). */
  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /**
   * Starts a stream: registers it, marks the member present, then replays the events after `lastEventId`
   * (or announces `ready` with the latest id), then writes live events as they come.
   */
  async open(res: Response, member: { profileId: number; siteId: number; token: string; clientIp: string }, lastEventId: number | null): Promise<void> {
    const stream: Stream = {
      profileId: member.profileId,
      siteId: member.siteId,
      clientIp: member.clientIp,
      tokenHash: hashToken(member.token, this.secret),
      res,
      lastId: lastEventId ?? 0,
      queue: [],
    };
    res.status(200).set({
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "private, no-store, no-transform",
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
    });
    res.flushHeaders();
    res.write(`retry: 3000\n\n`);
    const set = this.streams.get(member.profileId) ?? new Set<Stream>();
    set.add(stream);
    this.streams.set(member.profileId, set);
    const fromClient = this.byClient.get(stream.clientIp) ?? new Set<Stream>();
    fromClient.add(stream);
    this.byClient.set(stream.clientIp, fromClient);
    res.on("close", () => this.close(stream));
    this.endOldest(set, this.caps.perMember);
    this.endOldest(fromClient, this.caps.perClient);
    await this.db
      .insert(memberPresence)
      .values({ profileId: member.profileId, streamUntil: sql`now() + make_interval(secs => ${presenceSeconds})`, hidden: false })
      .onConflictDoUpdate({ target: memberPresence.profileId, set: { streamUntil: sql`now() + make_interval(secs => ${presenceSeconds})`, hidden: false } });

    await this.serial(() => this.replay(stream, member.profileId, lastEventId));
  }

  /** A new stream's start, in the delivery queue: `ready`, or the events after `lastEventId`; then what queued meanwhile. */
  private async replay(stream: Stream, profileId: number, lastEventId: number | null): Promise<void> {
    const member = { profileId };
    if (lastEventId === null) {
      const [latest] = await this.db.select({ id: sql<number>`coalesce(max(${memberEvents.id}), 0)::int` }).from(memberEvents).where(eq(memberEvents.profileId, member.profileId));
      stream.lastId = Math.max(stream.lastId, Number(latest?.id ?? 0));
      this.write(stream, stream.lastId, "ready", {});
    } else {
      const missed = await this.db
        .select()
        .from(memberEvents)
        .where(and(eq(memberEvents.profileId, member.profileId), gt(memberEvents.id, lastEventId)))
        .orderBy(asc(memberEvents.id))
        .limit(replayLimit);
      await this.deliver(missed, [stream]);
    }
    const queued = stream.queue ?? [];
    stream.queue = null;
    await this.deliver(queued, [stream]);
  }

  /** Past a cap, the oldest streams of `set` end (the newest is the tab the member is looking at). */
  private endOldest(set: Set<Stream>, cap: number): void {
    for (const oldest of set) {
      if (set.size <= cap) return;
      this.write(oldest, oldest.lastId, "end", { reason: "too_many_streams" });
      oldest.res.end();
      this.close(oldest);
    }
  }

  private close(stream: Stream): void {
    const fromClient = this.byClient.get(stream.clientIp);
    if (fromClient?.delete(stream) && fromClient.size === 0) this.byClient.delete(stream.clientIp);
    const set = this.streams.get(stream.profileId);
    if (!set?.delete(stream)) return;
    if (set.size > 0) return;
    this.streams.delete(stream.profileId);
    // Gone from this instance: away now, unless another instance's heartbeat says otherwise.
    void this.db
      .update(memberPresence)
      .set({ streamUntil: sql`now()` })
      .where(eq(memberPresence.profileId, stream.profileId))
      .catch(() => undefined);
  }

  private onNotify(payload: string): Promise<void> {
    return this.serial(() => this.readAnnounced(payload));
  }

  /**
   * A NOTIFY names new events as "event id:profile id" pairs (api/events/announce.ts). Only members with a stream
   * here that has finished its replay cost a read: each one's events after the oldest of its streams' last ids.
   * Reading from there, not only the ids named, delivers an event whose announcement was late or lost (a send's
   * events are announced after its commit, by the api instance that sent it) once a later one of the member's is
   * announced: a member's event ids commit in order (api/events/emit.ts), so every event below a committed one is
   * committed too. A stream still in its replay gets nothing here: the replay, later in the queue, reads it all.
   */
  private async readAnnounced(payload: string): Promise<void> {
    if (this.streams.size === 0) return;
    const after = new Map<number, number>();
    for (const pair of payload.split(",")) {
      const profileId = Number(pair.slice(pair.indexOf(":") + 1));
      if (after.has(profileId)) continue;
      const set = this.streams.get(profileId);
      if (!set) continue;
      let oldest = Infinity;
      for (const stream of set) if (!stream.queue) oldest = Math.min(oldest, stream.lastId);
      if (oldest !== Infinity) after.set(profileId, oldest);
    }
    if (after.size === 0) return;
    try {
      const rows = await this.db
        .select()
        .from(memberEvents)
        .innerJoin(sql`unnest(${sql.param([...after.keys()])}::int[], ${sql.param([...after.values()])}::int[]) as announced(profile_id, after_id)`, sql`${memberEvents.profileId} = announced.profile_id and ${memberEvents.id} > announced.after_id`)
        .orderBy(asc(memberEvents.id))
        .limit(replayLimit);
      await this.route(rows.map((row) => row.member_events));
    } catch {
      // The rows stay in the database: the member's next announced event, or the stream's reconnect, delivers them.
    }
  }

  /** After the bus connection was lost: every stream reads what it may have missed. */
  private resync(): Promise<void> {
    return this.serial(() => this.readMissed());
  }

  private async readMissed(): Promise<void> {
    for (const [profileId, set] of [...this.streams]) {
      for (const stream of set) {
        const missed = await this.db
          .select()
          .from(memberEvents)
          .where(and(eq(memberEvents.profileId, profileId), gt(memberEvents.id, stream.lastId)))
          .orderBy(asc(memberEvents.id))
          .limit(replayLimit)
          .catch(() => []);
        await this.deliver(missed, [stream]);
      }
    }
  }

  private async route(rows: EventRow[]): Promise<void> {
    const byProfile = new Map<number, EventRow[]>();
    for (const row of rows) byProfile.set(row.profileId, [...(byProfile.get(row.profileId) ?? []), row]);
    for (const [profileId, list] of byProfile) {
      const set = this.streams.get(profileId);
      if (!set) continue;
      const ready: Stream[] = [];
      for (const stream of set) {
        if (stream.queue) stream.queue.push(...list);
        else ready.push(stream);
      }
      await this.deliver(list, ready);
    }
  }

  /** Writes `rows` (one recipient's, in id order) to `streams`, with their payloads, skipping what a stream already had. */
  private async deliver(rows: EventRow[], streams: Stream[]): Promise<void> {
    if (rows.length === 0 || streams.length === 0) return;
    const recipient = rows[0]!.profileId;
    const fromIds = [...new Set(rows.flatMap((r) => (r.fromProfileId === null ? [] : [r.fromProfileId])))];
    // Checked again now: a member blocked or turned invisible since the event was written is not shown.
    const from = fromIds.length
      ? await this.db
          .select({ id: profiles.id, name: profiles.name })
          .from(profiles)
          .where(and(inArray(profiles.id, fromIds), listableTo(recipient)))
      : [];
    const names = new Map(from.map((p) => [p.id, p]));
    const messageIds = rows.flatMap((r) => (r.kind === "message" && r.messageId !== null ? [r.messageId] : []));
    const messageRows = messageIds.length ? await this.db.select().from(messages).where(inArray(messages.id, messageIds)) : [];
    const byId = new Map(messageRows.map((m) => [m.id, m]));

    for (const row of rows) {
      const sender = row.fromProfileId === null ? null : names.get(row.fromProfileId);
      let data: object | null = null;
      if (row.kind === "counts") data = {};
      else if (row.fromProfileId !== null && !sender && row.fromProfileId !== recipient) data = null;
      else if (row.kind === "message") {
        const message = row.messageId === null ? undefined : byId.get(row.messageId);
        if (message && row.conversationId !== null) {
          const chatMessage: ChatMessage = toChatMessage(message, recipient);
          data = { conversation_id: row.conversationId, message: chatMessage, from: sender ?? { id: recipient, name: "" } };
        }
      } else if (row.kind === "typing" && row.conversationId !== null && sender) data = { conversation_id: row.conversationId, from: sender };
      else if (row.kind === "read" && row.conversationId !== null && sender) data = { conversation_id: row.conversationId, through: row.messageId ?? 0, from: sender };
      else if ((row.kind === "like" || row.kind === "match") && sender) data = { from: sender };
      for (const stream of streams) {
        if (row.id <= stream.lastId) continue;
        stream.lastId = row.id;
        if (data) this.write(stream, row.id, row.kind, data);
      }
    }
  }

  private write(stream: Stream, id: number, kind: LiveEventKind, data: object): void {
    // A stream ended meanwhile (a cap, a session end) may still be in a delivery under way.
    if (stream.res.writableEnded) return;
    stream.res.write(`id: ${id}\nevent: ${kind}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Keeps connections open, extends presence, ends streams of ended sessions, and now and then prunes old events. */
  private async heartbeat(): Promise<void> {
    if (this.streams.size > 0) {
      for (const set of this.streams.values()) for (const stream of set) stream.res.write(`: ping\n\n`);
      await this.db
        .update(memberPresence)
        .set({ streamUntil: sql`now() + make_interval(secs => ${presenceSeconds})` })
        .where(inArray(memberPresence.profileId, [...this.streams.keys()]))
        .catch(() => undefined);
      // Every open stream's session in one query (not one per stream): the ended ones are told and closed.
      const all = [...this.streams.values()].flatMap((set) => [...set]);
      const live = await liveSessionHashes(
        this.db,
        all.map((stream) => stream.tokenHash),
      ).catch(() => null);
      if (live) {
        for (const stream of all) {
          if (live.has(stream.tokenHash)) continue;
          this.write(stream, stream.lastId, "end", {});
          stream.res.end();
          this.close(stream);
        }
      }
    }
    if (++this.ticks % 240 === 1) {
      // The created_at index is a BRIN (migration 0027): full page ranges are summarised here, on PGlite too, which has
      // no autovacuum to do it; a range not yet summarised is read whole by the prune and the mails' look-back.
      await this.db.execute(sql`select brin_summarize_new_values('member_events_created_idx')`).catch(() => undefined);
      await this.db
        .delete(memberEvents)
        .where(lt(memberEvents.createdAt, sql`now() - make_interval(days => ${keepDays})`))
        .catch(() => undefined);
    }
  }
}

/** Whether a member counts as away for notifications: no stream heartbeat lately, or their page is hidden. */
export async function isAway(db: Db, profileId: number): Promise<boolean> {
  const [row] = await db
    .select({ away: sql<boolean>`${memberPresence.hidden} or ${memberPresence.streamUntil} < now()` })
    .from(memberPresence)
    .where(eq(memberPresence.profileId, profileId));
  return row ? Boolean(row.away) : true;
}
