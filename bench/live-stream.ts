/**
 * The "live stream" rows of `npm run bench`: send-to-receive latency over GET /api/events.php with
 * `listeners` members connected, and the memory an open stream costs in web and in the api.
 *
 * Streams: every listener (a prepared member with a session, bench/paid-sends.ts prepareDatabase) opens
 * one stream through web's port, as a browser does (web proxies /api/* to the api unbuffered), with the
 * site's host name in Host, at most `openConcurrency` opening at a time; the bench waits until each has
 * had its `ready` event. A stream is read by a small Server-Sent Events parser on node:http, in the
 * bench's process (no EventSource polyfill): only `ready` and `message` events are looked at.
 *
 * Memory: web's and the api's process.memoryUsage() after a full GC (bench/memory-probe.ts, on SIGUSR2),
 * once before the streams are opened and once after they all had `ready`; each time after the processes
 * went idle, a first full GC and a 2 s pause (the RSS shrinks some time after a GC), then the reading with
 * a second GC. (after − before) / listeners is the cost of one open stream: heap used is the steady figure,
 * the RSS moves with what the allocator keeps or gives back. Without the probe's answer only the RSS from
 * /proc/<pid>/status is taken (no heap figures, no GC).
 *
 * Sends: `sends` messages, paced evenly over `seconds` (open loop: a send starts on its schedule whether
 * or not earlier ones have been answered, over at most `connections` keep-alive connections, so a slow
 * api shows up as latency rather than as fewer sends), POST /api/message.php straight to the api as web
 * sends it (as the paid sends do), each from a random live sender (members with credits, not listening)
 * to a random listener (a seeded PRNG, so runs send the same pattern). Each message's id (from the 201
 * answer) is matched with the `message` event carrying it; latency is from the start of the send request
 * to the arrival of that event on the recipient's stream, and also from the 201 answer (negative when the
 * event came first). After the last answer the bench waits up to `drainMs` for the events still due.
 * Missing (a 201 whose event never came to its recipient), duplicated (one message twice on a stream),
 * misdelivered (on another listener's stream) and streams that ended early are counted; all must be 0.
 * The live senders' credits are checked afterwards like the paid sends' (checkAccounting).
 */
import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { Accounting, LiveSetup, Sender } from "./paid-sends";
import { delay } from "./processes";

export type MemoryUsage = { rss: number; heapUsed: number | null; heapTotal: number | null; external: number | null; arrayBuffers: number | null; source: "probe" | "proc" };
type ProcessMemory = { before: MemoryUsage | null; after: MemoryUsage | null; rssPerStream: number | null; heapUsedPerStream: number | null; externalPerStream: number | null };

export type LiveStreamResult = {
  name: string;
  listeners: number;
  /** Streams that had `ready`, and how long opening all of them took. */
  streamsReady: number;
  openSeconds: number;
  sends: number;
  seconds: number;
  /** From the first send's start to the last answer. */
  sendSeconds: number;
  sendsPerSec: number;
  created: number;
  statusCodes: Record<string, number>;
  non201: number;
  errors: number;
  /** Send start → `message` event on the recipient's stream, for every delivered message. */
  latencyMs: { average: number; p50: number; p90: number; p99: number; max: number };
  /** 201 answer → event (negative: the event came first). */
  afterAnswerMs: { p50: number; p99: number; max: number };
  /** The send request alone (start → 201). */
  sendLatencyMs: { p50: number; p99: number; max: number };
  delivered: number;
  missing: number;
  duplicates: number;
  misdelivered: number;
  /** Streams that closed or failed before the bench closed them. */
  streamsLost: number;
  cpuMsPerSend: Record<string, number | null>;
  memory: { web: ProcessMemory; api: ProcessMemory };
  /** For the accounting of the live senders (bench/paid-sends.ts checkAccounting). */
  createdTotal: number;
  createdBySender: number[];
  accounting: Accounting | null;
};

export type LiveStreamOptions = {
  web: string;
  api: string;
  setup: LiveSetup;
  sends: number;
  seconds: number;
  connections: number;
  openConcurrency?: number;
  drainMs?: number;
  /** The processes' ids, for /proc and the memory probe's signal, and the file the probe writes (per process). */
  pids: { web: number | undefined; api: number | undefined };
  memoryFiles: { web: string; api: string };
  /** Called before each memory reading and before the sends: waits until the servers are idle, fails if one died. */
  settle: () => Promise<void>;
  cpu: { web: () => number | null; api: () => number | null };
  log: (message: string) => void;
};

type Stream = {
  index: number;
  request: http.ClientRequest;
  ready: Promise<void>;
  /** Message ids seen on this stream, with their arrival time (performance.now()). */
  seen: Map<number, number>;
  duplicates: number;
  closedByBench: boolean;
  lost: boolean;
};

let stopped = false;

/** Stops opening streams and sending (Ctrl-C). */
export function stopLiveStream(): void {
  stopped = true;
}

/** mulberry32: a small seeded PRNG, so each run sends the same pattern. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/**
 * Opens one stream through web: resolves `ready` on the `ready` event, records every `message` event's
 * message id with its arrival time. Server-Sent Events: blocks end with a blank line, `event:` and
 * `data:` lines, comments start with ":".
 */
function openStream(index: number, web: URL, host: string, member: Sender, agent: http.Agent, onMessage: (stream: Stream, id: number, at: number) => void): Stream {
  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined);
  const request = http.get({
    agent,
    host: web.hostname,
    port: web.port,
    path: "/api/events.php",
    headers: { host, cookie: member.cookie, accept: "text/event-stream", "cache-control": "no-cache" },
  });
  const stream: Stream = { index, request, ready, seen: new Map(), duplicates: 0, closedByBench: false, lost: false };
  const fail = (error: Error) => {
    if (!stream.closedByBench) stream.lost = true;
    rejectReady(error);
  };
  request.on("error", fail);
  request.on("response", (response) => {
    if (response.statusCode !== 200 || !/^text\/event-stream/.test(response.headers["content-type"] ?? "")) {
      response.resume();
      fail(new Error(`listener ${index + 1}: GET /api/events.php answered ${response.statusCode} (${response.headers["content-type"] ?? "no content-type"})`));
      return;
    }
    response.setEncoding("utf8");
    let buffer = "";
    response.on("data", (chunk: string) => {
      const at = performance.now();
      buffer += chunk;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        let data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(line.startsWith("data: ") ? 6 : 5);
        }
        if (!data) continue;
        if (event === "ready") resolveReady();
        else if (event === "message") {
          const id = (JSON.parse(data) as { message?: { id?: unknown } }).message?.id;
          if (typeof id === "number") onMessage(stream, id, at);
        } else if (event === "end") fail(new Error(`listener ${index + 1}: the stream ended (end event)`));
      }
    });
    response.on("close", () => fail(new Error(`listener ${index + 1}: the stream closed`)));
  });
  return stream;
}

/** VmRSS of a process from /proc, in bytes. */
async function procRss(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** process.memoryUsage() of a server after a full GC (bench/memory-probe.ts), else its RSS from /proc; null when neither is there. */
async function memoryOf(pid: number | undefined, file: string): Promise<MemoryUsage | null> {
  if (pid === undefined) return null;
  await rm(file, { force: true });
  try {
    process.kill(pid, "SIGUSR2");
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      await delay(100);
      const text = await readFile(file, "utf8").catch(() => null);
      if (text === null) continue;
      const usage = JSON.parse(text) as { pid: number; rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
      if (usage.pid !== pid) continue;
      return { rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external, arrayBuffers: usage.arrayBuffers, source: "probe" };
    }
  } catch {
    // No such process, or not ours to signal: /proc only.
  }
  const rss = await procRss(pid);
  return rss === null ? null : { rss, heapUsed: null, heapTotal: null, external: null, arrayBuffers: null, source: "proc" };
}

function perStream(before: MemoryUsage | null, after: MemoryUsage | null, streams: number): ProcessMemory {
  const per = (field: "rss" | "heapUsed" | "external") => {
    const a = before?.[field];
    const b = after?.[field];
    return a == null || b == null || streams === 0 ? null : (b - a) / streams;
  };
  return { before, after, rssPerStream: per("rss"), heapUsedPerStream: per("heapUsed"), externalPerStream: per("external") };
}

/** POSTs one message; resolves with the status and, on 201, the message id, once the whole answer has arrived. */
function send(agent: http.Agent, api: URL, headers: Record<string, string>, body: string): Promise<{ status: number; id: number | null }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: api.hostname, port: api.port, path: "/api/message.php", method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, timeout: 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          let id: number | null = null;
          if (response.statusCode === 201) {
            const answer = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { message?: { id?: unknown } };
            id = typeof answer.message?.id === "number" ? answer.message.id : null;
          }
          resolve({ status: response.statusCode ?? 0, id });
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(body);
  });
}

/** Opens the streams, reads memory, sends, matches, closes the streams. */
export async function runLiveStream(options: LiveStreamOptions): Promise<LiveStreamResult> {
  const { setup, log } = options;
  const web = new URL(options.web);
  const api = new URL(options.api);
  const host = `${setup.senders.siteDomain}:${web.port}`;
  const listeners = setup.listeners;
  const openConcurrency = options.openConcurrency ?? 25;
  const drainMs = options.drainMs ?? 5000;

  // A first full GC gives back what the earlier rows left; the RSS shrinks some time after it, so the reading comes from a second one.
  await options.settle();
  await memoryOf(options.pids.web, options.memoryFiles.web);
  await memoryOf(options.pids.api, options.memoryFiles.api);
  await delay(2000);
  const webBefore = await memoryOf(options.pids.web, options.memoryFiles.web);
  const apiBefore = await memoryOf(options.pids.api, options.memoryFiles.api);

  // Which stream each message arrived on, by message id (an event can come before its send's 201 answer).
  const arrivals = new Map<number, { stream: number; at: number }[]>();
  const onMessage = (stream: Stream, id: number, at: number) => {
    if (stream.seen.has(id)) {
      stream.duplicates += 1;
      return;
    }
    stream.seen.set(id, at);
    const list = arrivals.get(id) ?? [];
    list.push({ stream: stream.index, at });
    arrivals.set(id, list);
  };

  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams: Stream[] = [];
  const openStarted = performance.now();
  try {
    let next = 0;
    const opener = async () => {
      while (next < listeners.length && !stopped) {
        const i = next++;
        const member = listeners[i];
        if (!member) continue;
        const stream = openStream(i, web, host, member, streamAgent, onMessage);
        streams[i] = stream;
        await Promise.race([stream.ready, delay(60_000, true).then(() => Promise.reject(new Error(`listener ${i + 1}: no ready event within 60 s`)))]);
      }
    };
    await Promise.all(Array.from({ length: openConcurrency }, opener));
    const openSeconds = (performance.now() - openStarted) / 1000;
    log(`${streams.length} streams open through web, all had ready, in ${openSeconds.toFixed(1)} s`);

    await options.settle();
    await memoryOf(options.pids.web, options.memoryFiles.web);
    await memoryOf(options.pids.api, options.memoryFiles.api);
    await delay(2000);
    const webAfter = await memoryOf(options.pids.web, options.memoryFiles.web);
    const apiAfter = await memoryOf(options.pids.api, options.memoryFiles.api);

    // The sends: open loop, evenly paced.
    await options.settle();
    const next01 = random(13);
    const sendAgent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
    const senders = setup.senders.senders;
    const createdBySender = senders.map(() => 0);
    type Sent = { recipient: number; start: number; answered: number; id: number };
    const sent: Sent[] = [];
    const statusCodes: Record<string, number> = {};
    const sendLatencies: number[] = [];
    let errors = 0;
    const interval = (options.seconds * 1000) / options.sends;
    const cpuBefore = { web: options.cpu.web(), api: options.cpu.api() };
    const sendsStarted = performance.now();
    const pending: Promise<void>[] = [];
    for (let n = 0; n < options.sends && !stopped; n++) {
      const due = sendsStarted + n * interval;
      const wait = due - performance.now();
      if (wait > 1) await delay(wait);
      const from = Math.floor(next01() * senders.length);
      const recipient = Math.floor(next01() * listeners.length);
      const sender = senders[from];
      const to = listeners[recipient];
      if (!sender || !to) continue;
      const headers = {
        accept: "application/json",
        "content-type": "application/json",
        cookie: sender.cookie,
        "x-client-ip": sender.clientIp,
        "x-forwarded-host": setup.senders.siteDomain,
        "x-forwarded-proto": "http",
      };
      const body = JSON.stringify({ to: to.profileId, body: `Live bench message ${n + 1}`, key: randomUUID() });
      // Time waiting for a free connection counts (the agent queues the request), as it would for a member.
      const start = performance.now();
      pending.push(
        send(sendAgent, api, headers, body).then(
          ({ status, id }) => {
            const answered = performance.now();
            statusCodes[status] = (statusCodes[status] ?? 0) + 1;
            sendLatencies.push(answered - start);
            if (status === 201) {
              createdBySender[from] = (createdBySender[from] ?? 0) + 1;
              if (id !== null) sent.push({ recipient, start, answered, id });
            }
          },
          () => {
            errors += 1;
          },
        ),
      );
    }
    await Promise.all(pending);
    const sendSeconds = (performance.now() - sendsStarted) / 1000;
    const cpuAfter = { web: options.cpu.web(), api: options.cpu.api() };
    sendAgent.destroy();

    // The events still due: wait until every 201 has its event, or drainMs.
    const drainDeadline = performance.now() + drainMs;
    while (performance.now() < drainDeadline && sent.some((s) => !streams[s.recipient]?.seen.has(s.id))) await delay(50);

    const latencies: number[] = [];
    const afterAnswer: number[] = [];
    let missing = 0;
    for (const s of sent) {
      const at = streams[s.recipient]?.seen.get(s.id);
      if (at === undefined) {
        missing += 1;
        continue;
      }
      latencies.push(at - s.start);
      afterAnswer.push(at - s.answered);
    }
    let misdelivered = 0;
    const recipientOf = new Map(sent.map((s) => [s.id, s.recipient]));
    for (const [id, list] of arrivals) {
      const recipient = recipientOf.get(id);
      // Only this run's messages are counted (the listeners receive nothing else).
      if (recipient === undefined) continue;
      misdelivered += list.filter((a) => a.stream !== recipient).length;
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const sortedAfter = [...afterAnswer].sort((a, b) => a - b);
    const sortedSend = [...sendLatencies].sort((a, b) => a - b);
    const created = Object.entries(statusCodes).reduce((a, [status, n]) => a + (status === "201" ? n : 0), 0);
    const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
    const cpuPerSend = (name: "web" | "api") => {
      const a = cpuBefore[name];
      const b = cpuAfter[name];
      return a === null || b === null || created === 0 ? null : (b - a) / created;
    };
    const streamsLost = streams.filter((s) => s?.lost).length;
    return {
      name: `${listeners.length} streams through web, ${senders.length} senders straight to the api`,
      listeners: listeners.length,
      streamsReady: streams.length,
      openSeconds,
      sends: options.sends,
      seconds: options.seconds,
      sendSeconds,
      sendsPerSec: sendSeconds > 0 ? created / sendSeconds : 0,
      created,
      statusCodes,
      non201: requests - created,
      errors,
      latencyMs: {
        average: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0,
        p50: percentile(sorted, 50),
        p90: percentile(sorted, 90),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0,
      },
      afterAnswerMs: { p50: percentile(sortedAfter, 50), p99: percentile(sortedAfter, 99), max: sortedAfter.at(-1) ?? 0 },
      sendLatencyMs: { p50: percentile(sortedSend, 50), p99: percentile(sortedSend, 99), max: sortedSend.at(-1) ?? 0 },
      delivered: latencies.length,
      missing,
      duplicates: streams.reduce((a, s) => a + (s?.duplicates ?? 0), 0),
      misdelivered,
      streamsLost,
      cpuMsPerSend: { web: cpuPerSend("web"), api: cpuPerSend("api") },
      memory: { web: perStream(webBefore, webAfter, streams.length), api: perStream(apiBefore, apiAfter, streams.length) },
      createdTotal: createdBySender.reduce((a, b) => a + b, 0),
      createdBySender,
      accounting: null,
    };
  } finally {
    for (const stream of streams) {
      if (!stream) continue;
      stream.closedByBench = true;
      stream.request.destroy();
    }
    streamAgent.destroy();
  }
}
