import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { SendMessageResponse } from "#contract/chat";
import { Settings } from "#contract/settings";
import { creditLedger, sessions, users } from "../../api/db/schema";
import { createSession } from "../../api/domain/sessions";
import { isAway } from "../../api/events/hub";
import { eventChannel, pushChannel, pushedEventKinds } from "../../api/events/emit";
import { call, cookieHeader, expectApiError, insertMember, startApi, testSessionSecret, type Harness } from "./harness";

/**
 * Live chat, the api over HTTP on PGlite and on PostgreSQL (DATABASE_URL): GET /api/events.php
 * (Server-Sent Events) delivers message, typing, read, like and match events live; a reconnect with
 * Last-Event-ID replays what was missed, each event once and in order; blocks and invisibility are checked
 * again at delivery; the stream ends with the session; presence (isAway) follows the stream and the
 * page-hidden / page-visible signals; and, on PostgreSQL, an event written through one api instance reaches a
 * stream open on another.
 */

/** The heartbeat the api runs with here (15 s in production): ended sessions are noticed on a heartbeat. */
const heartbeatMs = 200;
/** The aim: a message shows within 2 s. */
const liveWithinMs = 2000;

let api: Harness;
let cost: number;

type Member = { userId: number; profileId: number; token: string; name: string };

/** A member with a session and `credits` booked as a purchase, with the ledger row, as chat-concurrency.test.ts does. */
async function newMember(on: Harness = api, credits = 0): Promise<Member> {
  const m = await insertMember(on, { passwordHash: "not-used" });
  await on.db.update(users).set({ credits, paidUser: credits > 0 }).where(eq(users.id, m.userId));
  if (credits) await on.db.insert(creditLedger).values({ userId: m.userId, delta: credits, balanceAfter: credits, reason: "purchase", reference: "live-events-test" });
  const token = await createSession(on.db, m.userId, testSessionSecret);
  const me = (await (await call(on, "GET", "/api/user.php", { token })).json()) as { user: { profile: { name: string } } };
  return { userId: m.userId, profileId: m.profileId, token, name: me.user.profile.name };
}

/** A paying member (credits for 20 messages). */
const sender = (on: Harness = api) => newMember(on, 20 * cost);

async function send(from: Member, to: Member, body: string, on: Harness = api): Promise<SendMessageResponse> {
  const res = await call(on, "POST", "/api/message.php", { token: from.token, body: { to: to.profileId, body, key: randomBytes(12).toString("base64url") } });
  expect(res.status, await res.clone().text()).toBe(201);
  return SendMessageResponse.parse(await res.json());
}


type SseEvent = { id: string | null; event: string; data: unknown; at: number };

/**
 * A member's open GET /api/events.php, read with fetch and parsed as the EventSource parser does (fields
 * per line, events split by a blank line, comments kept apart).
 */
class EventStream {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  /** Settles when the server ended the response (or the test aborted it). */
  readonly done: Promise<void>;
  ended = false;
  private readonly controller: AbortController;
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly response: Response,
    controller: AbortController,
  ) {
    this.controller = controller;
    this.done = this.read();
  }

  static async open(on: Harness, who: Member, options: { lastEventId?: string; query?: string } = {}): Promise<EventStream> {
    const controller = new AbortController();
    const headers: Record<string, string> = { "X-Forwarded-Host": "localhost", Cookie: cookieHeader(who.token), Accept: "text/event-stream" };
    if (options.lastEventId !== undefined) headers["Last-Event-ID"] = options.lastEventId;
    const response = await fetch(`${on.baseUrl}/api/events.php${options.query ?? ""}`, { headers, signal: controller.signal });
    expect(response.status, "the stream opens").toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    return new EventStream(response, controller);
  }

  private async read(): Promise<void> {
    const reader = this.response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      this.ended = true;
      this.notify();
    }
  }

  private parse(block: string): void {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") id = value;
      else if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length > 0) this.events.push({ id, event, data: JSON.parse(data.join("\n")) as unknown, at: Date.now() });
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Events of one kind received so far. */
  of(kind: string): SseEvent[] {
    return this.events.filter((e) => e.event === kind);
  }

  /** Waits until `check` holds on what arrived (or the stream ended); fails after `timeoutMs`. */
  async until<T>(check: () => T | undefined | false, what: string, timeoutMs = liveWithinMs): Promise<T> {
    const first = check();
    if (first) return first;
    return new Promise<T>((resolve, reject) => {
      const listener = () => {
        const value = check();
        if (value) {
          clearTimeout(timer);
          this.listeners.delete(listener);
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`${what}: not within ${timeoutMs} ms; received ${JSON.stringify(this.events.map((e) => `${e.id} ${e.event}`))}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }

  /** The next (`count`-th) event of `kind`, waiting for it. */
  next(kind: string, count = 1, timeoutMs = liveWithinMs): Promise<SseEvent> {
    return this.until(() => this.of(kind)[count - 1], `event ${kind} #${count}`, timeoutMs);
  }

  /** The `ready` event's id (where a reconnect resumes). */
  async readyId(): Promise<string> {
    const ready = await this.next("ready");
    expect(ready.id).toMatch(/^\d+$/);
    return ready.id!;
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.done;
  }
}

/** The sender of fence messages (fence()), made on first use. */
const fenceSenders = new Map<Harness, Member>();

/**
 * Proves that nothing more is coming without a sleep: a stream delivers in event order, so once a message
 * sent now has arrived on `s`, everything written for `to` before it has arrived too. The fence message is
 * then taken out of `s.events`, so a test's assertions see only its own events.
 */
async function fence(s: EventStream, to: Member, on: Harness = api): Promise<SseEvent> {
  const from = fenceSenders.get(on) ?? (await sender(on));
  fenceSenders.set(on, from);
  const sent = await send(from, to, "fence", on);
  const isFence = (e: SseEvent) => e.event === "message" && (e.data as { message?: { id?: number } }).message?.id === sent.message.id;
  await s.until(() => s.events.some(isFence), "the fence message");
  const [event] = s.events.splice(s.events.findIndex(isFence), 1);
  return event!;
}

/** Every stream a test opened: closed after it, pass or fail. */
const opened: EventStream[] = [];
async function stream(who: Member, options: { lastEventId?: string; query?: string; on?: Harness } = {}): Promise<EventStream> {
  const s = await EventStream.open(options.on ?? api, who, options);
  opened.push(s);
  return s;
}

async function closeAll(): Promise<void> {
  await Promise.all(opened.splice(0).map((s) => s.close()));
}

/** Waits until isAway(member) is `away` (presence is written after the stream's headers, and on close without waiting). */
async function expectAway(who: Member, away: boolean): Promise<void> {
  await expect.poll(() => isAway(api.db, who.profileId), { timeout: 3000, interval: 25 }).toBe(away);
}

beforeAll(async () => {
  api = await startApi({ eventsHeartbeatMs: heartbeatMs });
  cost = Settings.parse(await (await call(api, "GET", "/api/settings.php")).json()).message_credits;
});

afterEach(closeAll);

afterAll(async () => {
  await closeAll();
  await api?.close();
});

describe("live delivery", () => {
  it("a message sent by A arrives on B's open stream (and A's) within 2 s, with the message and its sender", async () => {
    const a = await sender();
    const b = await newMember();
    const ofB = await stream(b);
    const ofA = await stream(a);
    await ofB.readyId();
    await ofA.readyId();

    const started = Date.now();
    const sent = await send(a, b, "Hello B, live");
    const event = await ofB.next("message");
    expect(event.at - started).toBeLessThan(liveWithinMs);
    expect(event.data).toEqual({ conversation_id: sent.message.conversation_id, message: { ...sent.message, credits: 0 }, from: { id: a.profileId, name: a.name } });
    expect(Number(event.id)).toBeGreaterThan(0);
    // The sender's other tabs hear of it too, with what it cost them.
    const own = await ofA.next("message");
    expect(own.data).toMatchObject({ conversation_id: sent.message.conversation_id, message: sent.message });
  });

  it("typing arrives as typing; B reading the conversation arrives at A as read with `through`, and at B's other tabs as counts", async () => {
    const a = await sender();
    const b = await newMember();
    const sent = await send(a, b, "Are you typing?");
    const conversation = sent.message.conversation_id;
    const ofA = await stream(a);
    const ofB = await stream(b);
    await ofA.readyId();
    await ofB.readyId();

    const typing = await call(api, "POST", "/api/typing.php", { token: a.token, body: { conversation } });
    expect(typing.status).toBe(204);
    expect((await ofB.next("typing")).data).toEqual({ conversation_id: conversation, from: { id: a.profileId, name: a.name } });
    expect(ofA.of("typing"), "the typist does not hear themselves").toHaveLength(0);

    const read = await call(api, "POST", "/api/chat-read.php", { token: b.token, body: { conversation } });
    expect(read.status).toBe(200);
    expect((await ofA.next("read")).data).toEqual({ conversation_id: conversation, through: sent.message.id, from: { id: b.profileId, name: b.name } });
    expect((await ofB.next("counts")).data).toEqual({});
  });

  it("a like arrives as like; the like back makes a match, announced to both", async () => {
    const a = await newMember();
    const b = await newMember();
    const ofA = await stream(a);
    const ofB = await stream(b);
    await ofA.readyId();
    await ofB.readyId();

    expect((await call(api, "POST", "/api/like.php", { token: a.token, body: { id: b.profileId } })).status).toBe(200);
    expect((await ofB.next("like")).data).toEqual({ from: { id: a.profileId, name: a.name } });

    expect((await call(api, "POST", "/api/like.php", { token: b.token, body: { id: a.profileId } })).status).toBe(200);
    expect((await ofA.next("match")).data).toEqual({ from: { id: b.profileId, name: b.name } });
    expect((await ofB.next("match")).data).toEqual({ from: { id: a.profileId, name: a.name } });
    expect(ofA.of("like"), "A's like back is the match, not a like").toHaveLength(0);
    expect(ofB.of("like")).toHaveLength(1);
  });

  it("messages from many senders at once all arrive on the recipient's stream, each once, in id order", async () => {
    const senders = await Promise.all(Array.from({ length: 8 }, () => sender()));
    const b = await newMember();
    const ofB = await stream(b);
    await ofB.readyId();
    const sent = await Promise.all(senders.flatMap((a) => [1, 2, 3].map((i) => send(a, b, `burst ${i}`))));
    await ofB.next("message", sent.length, 5000);
    await fence(ofB, b);
    const ids = ofB.of("message").map((e) => (e.data as { message: { id: number } }).message.id);
    expect(ids).toHaveLength(sent.length);
    expect([...ids].sort((x, y) => x - y)).toEqual(sent.map((s) => s.message.id).sort((x, y) => x - y));
    const eventIds = ofB.events.map((e) => Number(e.id));
    expect(eventIds).toEqual([...eventIds].sort((x, y) => x - y));
  });

  it("an event whose announcement was lost arrives with the member's next announced event, once and in order", async () => {
    const a = await sender();
    const b = await newMember();
    const ofB = await stream(b);
    await ofB.readyId();
    // A like written as a send writes its events, but never announced: as if its api stopped right after the commit.
    await api.db.execute(sql`select * from record_member_events(${JSON.stringify([{ profile_id: b.profileId, kind: "like", from_profile_id: a.profileId }])}::jsonb)`);
    const sent = await send(a, b, "announced");
    await ofB.next("message", 1);
    await fence(ofB, b);
    expect(ofB.events.filter((e) => e.event !== "ready" && e.event !== "counts").map((e) => e.event)).toEqual(["like", "message"]);
    expect((ofB.of("message")[0]!.data as { message: { id: number } }).message.id).toBe(sent.message.id);
    const ids = ofB.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a send by an api of the previous version (0024's send_message, while an upgrade rolls) is stored and arrives live", async () => {
    const a = await sender();
    const b = await newMember();
    const ofB = await stream(b);
    await ofB.readyId();
    const key = randomBytes(12).toString("base64url");
    const result = (await api.db.execute(
      sql`select * from send_message((select site_id from profiles where id = ${a.profileId}), ${a.userId}::int, ${a.profileId}::int, ${b.profileId}::int, 'text', 'from the old api', ${cost}::int, ${key}::text, 'message', 2)`,
    )) as unknown as { rows: Array<{ r_outcome: string; r_message_id: number }> };
    expect(result.rows[0]?.r_outcome).toBe("sent");
    await ofB.next("message", 1);
    expect((ofB.of("message")[0]!.data as { message: { id: number; body: string } }).message).toMatchObject({ id: result.rows[0]!.r_message_id, body: "from the old api" });
  });

  it("event ids only grow on a stream, and a heartbeat comment keeps it open", async () => {
    const a = await sender();
    const b = await newMember();
    const ofB = await stream(b);
    await ofB.readyId();
    for (let i = 0; i < 3; i++) await send(a, b, `number ${i}`);
    await ofB.next("message", 3);
    const ids = ofB.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    await ofB.until(() => ofB.comments.includes("ping"), "a heartbeat comment", heartbeatMs * 10);
  });
});

describe("replay with Last-Event-ID", () => {
  it("a reconnect gets the 3 messages sent while disconnected, each exactly once, in order", async () => {
    const a = await sender();
    const b = await newMember();
    const first = await stream(b);
    const resumeFrom = await first.readyId();
    await first.close();

    const sent = [];
    for (const body of ["one", "two", "three"]) sent.push(await send(a, b, body));
    const again = await stream(b, { lastEventId: resumeFrom });
    await again.next("message", 3);
    await fence(again, b);
    expect(again.of("ready"), "a resumed stream starts with no ready").toHaveLength(0);
    expect(again.of("message").map((e) => (e.data as { message: { id: number } }).message.id)).toEqual(sent.map((s) => s.message.id));
    expect(again.events.map((e) => e.event)).toEqual(["message", "message", "message"]);
  });

  it("?last_event_id= resumes as the header does", async () => {
    const a = await sender();
    const b = await newMember();
    const first = await stream(b);
    const resumeFrom = await first.readyId();
    await first.close();
    const sent = await send(a, b, "by query");
    const again = await stream(b, { query: `?last_event_id=${resumeFrom}` });
    expect(((await again.next("message")).data as { message: { id: number } }).message.id).toBe(sent.message.id);
  });

  it("an event delivered live is not delivered again by the replay that resumes after it", async () => {
    const a = await sender();
    const b = await newMember();
    const live = await stream(b);
    await live.readyId();
    const seen = await send(a, b, "seen live");
    const delivered = await live.next("message");
    await live.close();

    const missed = await send(a, b, "missed");
    const again = await stream(b, { lastEventId: delivered.id! });
    await again.next("message");
    await fence(again, b);
    const ids = again.of("message").map((e) => (e.data as { message: { id: number } }).message.id);
    expect(ids).toEqual([missed.message.id]);
    expect(ids).not.toContain(seen.message.id);
  });

  it("messages sent while the replay is read come once each, after it, in order", async () => {
    const a = await newMember(api, 40 * cost);
    const b = await newMember();
    let resumeFrom = await (await stream(b)).readyId();
    await closeAll();
    const expected: number[] = [];
    // The reconnect and several sends at once, a few rounds: live events can arrive while the replay is being
    // read (queued, then written after it), and a message can be both in the replay and announced live.
    for (let round = 0; round < 4; round++) {
      expected.push((await send(a, b, `round ${round} before`)).message.id);
      const [again, ...during] = await Promise.all([
        stream(b, { lastEventId: resumeFrom }),
        ...Array.from({ length: 5 }, (_, i) => send(a, b, `round ${round} during ${i}`)),
      ]);
      expected.push(...during.map((s) => (s as SendMessageResponse).message.id));
      const s = again as EventStream;
      await s.next("message", 6);
      const last = await fence(s, b);
      const events = s.of("message");
      expect(
        events.map((e) => (e.data as { message: { id: number } }).message.id),
        `round ${round}`,
      ).toEqual(expected.slice(-6).sort((x, y) => x - y));
      resumeFrom = last.id!;
      await closeAll();
    }
  });
});

describe("delivery checks again", () => {
  it("after B blocks A, A's message, typing and like written before are not replayed; another member's are", async () => {
    const a = await sender();
    const c = await sender();
    const b = await newMember();
    const first = await stream(b);
    const resumeFrom = await first.readyId();
    await first.close();

    const fromA = await send(a, b, "from A, before the block");
    expect((await call(api, "POST", "/api/typing.php", { token: a.token, body: { conversation: fromA.message.conversation_id } })).status).toBe(204);
    // The like's event outlives the block (the message's and typing's go with the conversation).
    expect((await call(api, "POST", "/api/like.php", { token: a.token, body: { id: b.profileId } })).status).toBe(200);
    expect((await call(api, "POST", "/api/block.php", { token: b.token, body: { id: a.profileId } })).status).toBe(200);
    const fromC = await send(c, b, "from C");

    const again = await stream(b, { lastEventId: resumeFrom });
    await again.next("message");
    await fence(again, b);
    expect(again.events.map((e) => e.event)).toEqual(["message"]);
    expect(again.of("message")[0]!.data).toMatchObject({ message: { id: fromC.message.id }, from: { id: c.profileId } });
  });

  it("after A turns invisible, A's events written before are not replayed, and A's later message is not delivered live", async () => {
    const a = await sender();
    const c = await sender();
    const b = await newMember();
    const first = await stream(b);
    const resumeFrom = await first.readyId();
    await first.close();

    const fromA = await send(a, b, "from A, before turning invisible");
    expect((await call(api, "POST", "/api/typing.php", { token: a.token, body: { conversation: fromA.message.conversation_id } })).status).toBe(204);
    expect((await call(api, "POST", "/api/like.php", { token: a.token, body: { id: b.profileId } })).status).toBe(200);
    const invisible = await call(api, "PUT", "/api/profile.php", { token: a.token, body: { invisible: true } });
    expect(invisible.status, await invisible.clone().text()).toBe(200);
    const fromC = await send(c, b, "from C");

    const again = await stream(b, { lastEventId: resumeFrom });
    await again.next("message");
    await fence(again, b);
    expect(again.events.map((e) => e.event)).toEqual(["message"]);
    expect(again.of("message")[0]!.data).toMatchObject({ message: { id: fromC.message.id }, from: { id: c.profileId } });

    // Live: A (still invisible) writes again; C's next message gets through, A's never shows.
    const res = await call(api, "POST", "/api/message.php", { token: a.token, body: { to: b.profileId, body: "while invisible", key: randomBytes(12).toString("base64url") } });
    const laterFromC = await send(c, b, "from C again");
    await again.next("message", 2);
    await fence(again, b);
    expect(again.of("message").map((e) => (e.data as { from: { id: number } }).from.id)).toEqual([c.profileId, c.profileId]);
    expect(again.of("message")[1]!.data).toMatchObject({ message: { id: laterFromC.message.id } });
    // The conversation exists, so A's message is stored (and charged) as any other: only its delivery is withheld.
    expect(res.status).toBe(201);
  });
});

describe("the stream ends with the session", () => {
  it("logging out sends `end` and closes the member's streams (every tab)", async () => {
    const b = await newMember();
    const tab1 = await stream(b);
    const tab2 = await stream(b);
    await tab1.readyId();
    await tab2.readyId();

    const out = await call(api, "GET", "/api/logout.php", { token: b.token });
    expect(out.status).toBe(200);
    for (const tab of [tab1, tab2]) {
      await tab.next("end", 1, heartbeatMs * 10);
      await tab.until(() => tab.ended, "the connection closed", heartbeatMs * 10);
      expect(tab.events.at(-1)?.event).toBe("end");
    }
    // The token no longer opens a stream.
    await expectApiError(await call(api, "GET", "/api/events.php", { token: b.token }), 403, "authentication_required");
  });

  it("a session revoked elsewhere (its row gone) ends the stream too; another member's stream stays open", async () => {
    const b = await newMember();
    const other = await newMember();
    const ofB = await stream(b);
    const ofOther = await stream(other);
    await ofB.readyId();
    await ofOther.readyId();
    await api.db.delete(sessions).where(eq(sessions.userId, b.userId));
    await ofB.next("end", 1, heartbeatMs * 10);
    await ofB.until(() => ofB.ended, "the connection closed", heartbeatMs * 10);
    // The sweep that ended B's stream has run; the other stream still carries what comes after it.
    await fence(ofOther, other);
    expect(ofOther.ended).toBe(false);
    expect(ofOther.of("end")).toHaveLength(0);
  });
});

describe("the event functions in SQL and the api agree", () => {
  /** The text of the database's current function (its newest migration's). */
  async function functionText(signature: string): Promise<string> {
    const result = (await api.db.execute(sql`select pg_get_functiondef(${signature}::regprocedure) as text`)) as unknown as { rows: { text: string }[] };
    return result.rows[0]!.text;
  }

  it("emit_member_events notifies on the channels the api listens to (eventChannel, pushChannel)", async () => {
    const text = await functionText("emit_member_events(jsonb)");
    const channels = [...text.matchAll(/pg_notify\('([a-z_]+)'/g)].map((m) => m[1]);
    expect(new Set(channels)).toEqual(new Set([eventChannel, pushChannel]));
  });

  it("record_member_events queues pushes for the kinds the push worker sends (pushedEventKinds)", async () => {
    const text = await functionText("record_member_events(jsonb)");
    const kinds = /e\.kind IN \(([^)]*)\)/.exec(text)?.[1]?.split(",").map((kind) => kind.trim().replace(/^'|'$/g, ""));
    expect(kinds).toEqual([...pushedEventKinds]);
  });
});

describe("bad input", () => {
  it("answers 400 to a Last-Event-ID or last_event_id that is not an event id", async () => {
    const b = await newMember();
    for (const value of ["abc", "-1", "1.5", "99999999999"]) {
      await expectApiError(await call(api, "GET", "/api/events.php", { token: b.token, headers: { "Last-Event-ID": value } }), 400, "validation_failed");
    }
    await expectApiError(await call(api, "GET", "/api/events.php?last_event_id=abc", { token: b.token }), 400, "validation_failed");
  });

  it("answers 403 to visitors on the stream and on typing", async () => {
    await expectApiError(await call(api, "GET", "/api/events.php"), 403, "authentication_required");
    await expectApiError(await call(api, "GET", "/api/events.php", { token: "not-a-session" }), 403, "authentication_required");
    await expectApiError(await call(api, "POST", "/api/typing.php", { body: { conversation: 1 } }), 403, "authentication_required");
  });

  it("answers 404 to typing in someone else's conversation or one that does not exist, and tells no one", async () => {
    const a = await sender();
    const b = await newMember();
    const stranger = await newMember();
    const { message } = await send(a, b, "just us");
    const ofB = await stream(b);
    await ofB.readyId();
    await expectApiError(await call(api, "POST", "/api/typing.php", { token: stranger.token, body: { conversation: message.conversation_id } }), 404, "not_found");
    await expectApiError(await call(api, "POST", "/api/typing.php", { token: stranger.token, body: { conversation: 2_000_000_000 } }), 404, "not_found");
    await fence(ofB, b);
    expect(ofB.of("typing")).toHaveLength(0);
  });

  it("answers 400 to a typing body of the wrong types", async () => {
    const a = await newMember();
    for (const body of [{}, { conversation: "1" }, { conversation: 1.5 }, { conversation: 0 }, { conversation: null }, { conversation: 2_147_483_648 }, []]) {
      await expectApiError(await call(api, "POST", "/api/typing.php", { token: a.token, body }), 400, "validation_failed");
    }
  });
});

describe("presence", () => {
  it("an open stream makes B present; page-hidden makes B away, page-visible present again; a closed stream away", async () => {
    const b = await newMember();
    expect(await isAway(api.db, b.profileId), "never connected").toBe(true);
    const ofB = await stream(b);
    await ofB.readyId();
    await expectAway(b, false);

    expect((await call(api, "POST", "/api/page-hidden.php", { token: b.token, body: {} })).status).toBe(204);
    await expectAway(b, true);
    expect((await call(api, "POST", "/api/page-visible.php", { token: b.token, body: {} })).status).toBe(204);
    await expectAway(b, false);
    // Heartbeats go on: still present three of them later (each heartbeat is a comment on the stream).
    const beats = ofB.comments.length;
    await ofB.until(() => ofB.comments.length >= beats + 3, "three more heartbeats", heartbeatMs * 10);
    expect(await isAway(api.db, b.profileId)).toBe(false);

    await ofB.close();
    await expectAway(b, true);
  });

  it("the member stays present while another tab's stream is open", async () => {
    const b = await newMember();
    const tab1 = await stream(b);
    const tab2 = await stream(b);
    await tab1.readyId();
    await tab2.readyId();
    const open = api.hub.size;
    await tab1.close();
    // The api has seen tab 1 go (a close would write presence at that moment).
    await expect.poll(() => api.hub.size, { timeout: 3000, interval: 10 }).toBe(open - 1);
    expect(await isAway(api.db, b.profileId)).toBe(false);
    await tab2.close();
    await expectAway(b, true);
  });

  it("page-hidden from a visitor (a beacon after logout) is a harmless 204", async () => {
    expect((await call(api, "POST", "/api/page-hidden.php", { body: {} })).status).toBe(204);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("scale-out: two api instances on one PostgreSQL database", () => {
  let second: Harness;

  beforeAll(async () => {
    second = await startApi({ sharedDatabase: true, eventsHeartbeatMs: heartbeatMs });
  });

  afterAll(async () => {
    await second?.close();
  });

  it("B connected to instance 2 receives, within 2 s, a message sent through instance 1, and the other way round", async () => {
    expect(second.baseUrl).not.toBe(api.baseUrl);
    const a = await sender();
    const b = await sender();
    const ofB = await stream(b, { on: second });
    const ofA = await stream(a, { on: api });
    await ofB.readyId();
    await ofA.readyId();

    const started = Date.now();
    const sent = await send(a, b, "through instance 1", api);
    const event = await ofB.next("message");
    expect(event.at - started).toBeLessThan(liveWithinMs);
    expect(event.data).toEqual({ conversation_id: sent.message.conversation_id, message: { ...sent.message, credits: 0 }, from: { id: a.profileId, name: a.name } });

    const reply = await send(b, a, "through instance 2", second);
    expect(((await ofA.next("message", 2)).data as { message: { id: number } }).message.id).toBe(reply.message.id);
  });

  it("a reconnect to the other instance replays what was missed", async () => {
    const a = await sender();
    const b = await newMember();
    const first = await stream(b, { on: api });
    const resumeFrom = await first.readyId();
    await first.close();
    const sent = [await send(a, b, "one", api), await send(a, b, "two", second)];
    const again = await stream(b, { on: second, lastEventId: resumeFrom });
    await again.next("message", 2);
    await fence(again, b, second);
    expect(again.of("message").map((e) => (e.data as { message: { id: number } }).message.id)).toEqual(sent.map((s) => s.message.id));
  });
});
