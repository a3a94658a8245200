import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../../api/domain/sessions";
import { defaultStreamCaps } from "../../api/events/hub";
import { staffSessionCookieName } from "../../api/domain/staff/sessions";
import { call, cookieHeader, insertMember, startApi, testSessionSecret, type Harness } from "./harness";
import { newStaff, staffToken } from "./staff-support";

/**
 * Open event streams (GET /api/events.php) are capped per member (5) and per client address (20),
 * on an api with CLIENT_LIMIT_SCALE=1 (the harness's 1000 scales the per-address cap). A stream past a cap
 * ends the oldest with `end` {reason: "too_many_streams"}; the others stay open and keep receiving events.
 */
let api: Harness;

type Member = { userId: number; profileId: number; token: string };
type Received = { event: string; data: unknown };

/** One open stream, read as EventSource parses it (enough for `ready`, `like` and `end`). */
class Stream {
  readonly events: Received[] = [];
  ended = false;
  private readonly controller = new AbortController();
  private wake: (() => void) | null = null;
  private done: Promise<void> = Promise.resolve();

  static async open(who: Member, clientIp: string): Promise<Stream> {
    return Stream.connect("/api/events.php", { "X-Forwarded-Host": "localhost", "X-Client-IP": clientIp, Cookie: cookieHeader(who.token) }, "ready");
  }

  /** A stream of any path, open once its first event (`ready`, a staff stream's `queues`) has arrived. */
  static async connect(path: string, headers: Record<string, string>, first: string): Promise<Stream> {
    const stream = new Stream();
    const response = await fetch(`${api.baseUrl}${path}`, { headers: { ...headers, Accept: "text/event-stream" }, signal: stream.controller.signal });
    expect(response.status).toBe(200);
    stream.done = stream.read(response);
    await stream.until(() => stream.events.some((e) => e.event === first), first);
    return stream;
  }

  private async read(response: Response): Promise<void> {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) this.events.push({ event, data: JSON.parse(data) as unknown });
          this.wake?.();
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      this.ended = true;
      this.wake?.();
    }
  }

  /** Waits until `check` holds; fails after 10 s (a loaded machine), saying what it waited for. */
  until(check: () => boolean, what: string): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: not within 10 s; received ${JSON.stringify(this.events)}`)), 10_000);
      this.wake = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  of(kind: string): Received[] {
    return this.events.filter((e) => e.event === kind);
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.done;
  }
}

const opened: Stream[] = [];
async function open(who: Member, clientIp: string): Promise<Stream> {
  const stream = await Stream.open(who, clientIp);
  opened.push(stream);
  return stream;
}

async function newMember(): Promise<Member> {
  const m = await insertMember(api, { passwordHash: "not-used" });
  return { userId: m.userId, profileId: m.profileId, token: await createSession(api.db, m.userId, testSessionSecret) };
}

/** `from` likes `to`: a `like` event on every open stream of `to`. */
async function like(from: Member, to: Member): Promise<void> {
  expect((await call(api, "POST", "/api/like.php", { token: from.token, body: { id: to.profileId } })).status).toBe(200);
}

async function expectEndedForNewer(stream: Stream): Promise<void> {
  await stream.until(() => stream.ended, "the oldest stream ends");
  expect(stream.events.at(-1)).toEqual({ event: "end", data: { reason: "too_many_streams" } });
}

beforeAll(async () => {
  api = await startApi({ env: { CLIENT_LIMIT_SCALE: "1" } });
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  await api?.close();
});

describe("open event streams are capped", () => {
  it("per member: the 6th stream ends the member's oldest; the other 5 stay open and get events", async () => {
    expect(defaultStreamCaps.perMember).toBe(5);
    const b = await newMember();
    const tabs: Stream[] = [];
    for (let i = 0; i < 5; i++) tabs.push(await open(b, "198.51.100.10"));
    expect(tabs.some((t) => t.ended)).toBe(false);
    // From another address: the member's cap counts every address.
    const newest = await open(b, "198.51.100.11");
    await expectEndedForNewer(tabs[0]!);
    const open5 = [...tabs.slice(1), newest];
    await like(await newMember(), b);
    for (const tab of open5) await tab.until(() => tab.of("like").length === 1, "the like on an open stream");
    expect(open5.map((t) => t.ended)).toEqual([false, false, false, false, false]);
    expect(tabs[0]!.of("like")).toHaveLength(0);
  });

  it("per client address: the 21st stream from one address ends that address's oldest, of whichever member", async () => {
    expect(defaultStreamCaps.perClient).toBe(20);
    const address = "198.51.100.20";
    const members = [await newMember(), await newMember(), await newMember(), await newMember(), await newMember()];
    const streams: Stream[] = [];
    // 5 members x 4 streams: each under the member cap, 20 from the address.
    for (const m of members) for (let i = 0; i < 4; i++) streams.push(await open(m, address));
    expect(streams.some((s) => s.ended)).toBe(false);
    // Another address does not count towards this one's cap.
    const elsewhere = await open(await newMember(), "198.51.100.21");
    const late = await newMember();
    const newest = await open(late, address);
    await expectEndedForNewer(streams[0]!);
    // The first member's other streams, and the newest, are open and get events.
    const liker = await newMember();
    await like(liker, members[0]!);
    await like(liker, late);
    for (const s of [...streams.slice(1, 4), newest]) await s.until(() => s.of("like").length === 1, "the like on an open stream");
    expect(streams[0]!.of("like")).toHaveLength(0);
    expect(streams.slice(1).filter((s) => s.ended)).toHaveLength(0);
    expect(elsewhere.ended).toBe(false);
  });
});

describe("staff event streams are capped per staff account", () => {
  it("an operator's 6th and 7th streams end the oldest two; five stay open", async () => {
    const operator = await staffToken(api, await newStaff(api, "operator"));
    const streams: Stream[] = [];
    for (let i = 0; i < 7; i++) {
      const stream = await Stream.connect("/api/staff/events.php", { Cookie: `${staffSessionCookieName}=${operator}` }, "queues");
      opened.push(stream);
      streams.push(stream);
    }
    await expectEndedForNewer(streams[0]!);
    await expectEndedForNewer(streams[1]!);
    expect(streams.slice(2).map((s) => s.ended)).toEqual([false, false, false, false, false]);
    // Another staff account's streams are its own.
    const other = await staffToken(api, await newStaff(api, "operator"));
    const theirs = await Stream.connect("/api/staff/events.php", { Cookie: `${staffSessionCookieName}=${other}` }, "queues");
    opened.push(theirs);
    expect(streams.slice(2).map((s) => s.ended)).toEqual([false, false, false, false, false]);
  });
});
