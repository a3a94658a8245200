import { createDecipheriv, createECDH, createPublicKey, generateKeyPairSync, hkdfSync, randomBytes, sign, verify } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { SendMessageResponse } from "#contract/chat";
import { Settings } from "#contract/settings";
import { creditLedger, profiles, pushJobs, pushSubscriptions, users } from "../../api/db/schema";
import { createSession } from "../../api/domain/sessions";
import { startPushWorker, type PushWorker } from "../../api/jobs/push";
import { createPushSender, deploymentVapidKeys, webPushSender, type VapidKeys } from "../../api/services/push";
import type { PushEndpointPolicy } from "../../api/services/push-endpoint";
import { call, cookieHeader, insertMember, startApi, testPushEndpoints, testSessionSecret, type Harness } from "./harness";

/**
 * Web push, over HTTP, with this file playing the push service: an HTTPS server on 127.0.0.1 (the
 * contract takes https endpoints only; its certificate is made here and trusted by the worker's agent).
 * A member subscribes with keys made here, is away, gets a message or a like; the push that reaches the
 * server is checked (VAPID JWT, aes128gcm) and decrypted per RFC 8291/8188 with node:crypto alone.
 * A 404/410 answer removes the subscription; another failure is retried; a member who is there gets none.
 */
let api: Harness;
let pushService: Server;
let pushOrigin: string;
let worker: PushWorker;
let deploymentKeys: VapidKeys;
let certificate: { cert: string; key: string };
/** What the push service answers next (201 unless a test says otherwise). */
let answerStatus = 201;
type Received = { path: string; headers: IncomingHttpHeaders; body: Buffer };
const received: Received[] = [];

/** The niche demo site with its own VAPID pair (the default site has none). */
const pushSite = "she.localhost";

type Member = { userId: number; profileId: number; name: string; token: string; host: string };
type Subscriber = Member & { ecdh: ReturnType<typeof createECDH>; auth: Buffer; endpoint: string };
let counter = 0;

/** Names the push endpoint policy resolves here (a test re-points one, as DNS rebinding would); the rest as the harness does. */
const answers = new Map<string, string[]>();
let endpoints: PushEndpointPolicy;

beforeAll(async () => {
  certificate = selfSignedCertificate();
  pushService = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answerStatus;
      res.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", resolve));
  pushOrigin = `https://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  // This file's push service runs on loopback: the api and the worker accept its origin, and only its.
  endpoints = { trustedOrigins: [pushOrigin], resolve: (hostname) => (answers.has(hostname) ? Promise.resolve(answers.get(hostname)!) : testPushEndpoints.resolve!(hostname)) };
  api = await startApi({ pushEndpoints: endpoints });
  deploymentKeys = deploymentVapidKeys({ dataDir: api.dataDir });
  worker = startPushWorker({
    db: api.db,
    logger: pino({ level: "silent" }),
    sender: webPushSender({ ca: certificate.cert, endpoints }),
    deploymentKeys,
    pollMs: 100,
  });
});

afterAll(async () => {
  await worker?.stop();
  await new Promise<void>((resolve) => (pushService ? pushService.close(() => resolve()) : resolve()));
  await api?.close();
});

afterEach(() => {
  answerStatus = 201;
  received.length = 0;
});

async function newMember(options: { host?: string; credits?: number; language?: string } = {}): Promise<Member> {
  const host = options.host ?? pushSite;
  const inserted = await insertMember(api, { passwordHash: "not-used", host, language: options.language });
  const name = `Pusher${++counter}`;
  await api.db.update(profiles).set({ name }).where(eq(profiles.id, inserted.profileId));
  const credits = options.credits ?? 0;
  await api.db.update(users).set({ credits, paidUser: credits > 0 }).where(eq(users.id, inserted.userId));
  // Credits come with their ledger row, as a purchase writes them (ledger == balance).
  if (credits) await api.db.insert(creditLedger).values({ userId: inserted.userId, delta: credits, balanceAfter: credits, reason: "purchase", reference: "push-test" });
  const token = await createSession(api.db, inserted.userId, testSessionSecret);
  return { userId: inserted.userId, profileId: inserted.profileId, name, token, host };
}

/** A member whose "browser" subscribed: a P-256 key pair and auth secret made here, an endpoint on the test push service. */
async function newSubscriber(options: { host?: string; language?: string } = {}): Promise<Subscriber> {
  const member = await newMember(options);
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${pushOrigin}/push/${randomBytes(12).toString("hex")}`;
  const res = await call(api, "POST", "/api/user.php?push=1", {
    token: member.token,
    host: member.host,
    body: { subscription: { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } } },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return { ...member, ecdh, auth, endpoint };
}

async function sendMessage(from: Member, to: Member, body: string): Promise<SendMessageResponse> {
  const res = await call(api, "POST", "/api/message.php", { token: from.token, host: from.host, body: { to: to.profileId, body, key: randomBytes(12).toString("base64url") } });
  expect(res.status, await res.clone().text()).toBe(201);
  return SendMessageResponse.parse(await res.json());
}

/**
 * Polls until `probe` answers. 20 s: in CI this file shares two cores with the api fuzz test, and a retried push once
 * took longer than the 8 s this waited before (it passes in well under a second on its own).
 */
async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pushTo = (subscriber: Subscriber) => until(`a push to ${subscriber.name}`, () => received.find((r) => `${pushOrigin}${r.path}` === subscriber.endpoint));
const jobsOf = async (subscriber: Subscriber) => {
  const [sub] = await api.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscriber.endpoint));
  return sub ? api.db.select().from(pushJobs).where(eq(pushJobs.subscriptionId, sub.id)) : [];
};

/** Checks the VAPID Authorization header (RFC 8292): an ES256 JWT for the push service's origin, signed by key k. */
function checkVapid(headers: IncomingHttpHeaders): { publicKey: string; claims: { aud: string; exp: number; sub: string } } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(headers.authorization ?? "");
  expect(match, headers.authorization).not.toBeNull();
  const [jwt = "", publicKey = ""] = match!.slice(1);
  const [header = "", claims = "", signature = ""] = jwt.split(".");
  expect(JSON.parse(Buffer.from(header, "base64url").toString())).toEqual({ typ: "JWT", alg: "ES256" });
  const point = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33, 65).toString("base64url") }, format: "jwk" });
  expect(verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))).toBe(true);
  const parsed = JSON.parse(Buffer.from(claims, "base64url").toString()) as { aud: string; exp: number; sub: string };
  expect(parsed.aud).toBe(pushOrigin);
  expect(parsed.exp * 1000).toBeGreaterThan(Date.now());
  expect(parsed.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
  expect(parsed.sub).toMatch(/^(mailto:|https:)/);
  return { publicKey, claims: parsed };
}

/** RFC 8291 (Web Push message encryption) over RFC 8188 aes128gcm, as a browser decrypts a push. */
function decryptPush(subscriber: Subscriber, body: Buffer): unknown {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublicKey = body.subarray(21, 21 + idLength);
  expect(idLength).toBe(65);
  const records = body.subarray(21 + idLength);
  expect(records.length).toBeLessThanOrEqual(recordSize);
  const userAgentPublicKey = subscriber.ecdh.getPublicKey();
  const ecdhSecret = subscriber.ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), userAgentPublicKey, serverPublicKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, subscriber.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // One record, the last: the content, then the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return JSON.parse(padded.subarray(0, end).toString("utf8"));
}

async function sitePushKey(host: string): Promise<string | null> {
  const res = await call(api, "GET", "/api/settings.php", { host });
  return Settings.parse(await res.json()).push_public_key;
}

/** An open event stream (the member is present) until `close` is called. */
async function openStream(member: Member): Promise<{ close: () => void }> {
  const controller = new AbortController();
  const res = await fetch(`${api.baseUrl}/api/events.php`, { headers: { Cookie: cookieHeader(member.token), "X-Forwarded-Host": member.host }, signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = "";
  while (!text.includes("event: ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("stream ended before ready");
    text += new TextDecoder().decode(value);
  }
  return { close: () => controller.abort() };
}

describe("web push to a member who is away", () => {
  it("sends a message as an encrypted push in the recipient's language, naming the sender, signed with the site's key", async () => {
    const sender = await newMember({ credits: 100 });
    const recipient = await newSubscriber({ language: "nl" });
    const text = "Hoi! Zin om zaterdag samen koffie te drinken in de stad?";
    const sent = await sendMessage(sender, recipient, text);

    const push = await pushTo(recipient);
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    expect(push.headers.urgency).toBe("high");
    const { publicKey, claims } = checkVapid(push.headers);
    // Signed with the key the settings give browsers to subscribe with: the site's own.
    expect(publicKey).toBe(await sitePushKey(pushSite));
    expect(claims.sub).toBe("mailto:support@she.rendezvous.example");
    expect(decryptPush(recipient, push.body)).toEqual({
      title: `Nieuw bericht van ${sender.name}`,
      body: text,
      url: `/nl/chats/${sent.message.conversation_id}`,
      tag: `chat-${sent.message.conversation_id}`,
    });
    // Only the recipient was pushed (the sender has no subscription; their own copy of the event is not pushed), once:
    // jobs are queued in the send's transaction, so once none is left nothing more can be pushed.
    await until("the push job done", async () => ((await jobsOf(recipient)).length === 0 ? true : undefined));
    expect(received).toHaveLength(1);
  });

  it("pushes a like in English with the likes page to open, and a long message cut to its start", async () => {
    const liker = await newMember({ credits: 100 });
    const liked = await newSubscriber({ language: "en" });
    const res = await call(api, "POST", "/api/like.php", { token: liker.token, host: liker.host, body: { id: liked.profileId } });
    expect(res.status, await res.clone().text()).toBe(200);
    const push = await pushTo(liked);
    expect(decryptPush(liked, push.body)).toEqual({ title: `${liker.name} likes you`, body: "Like them back and it's a match.", url: "/likes/received", tag: "likes" });

    received.length = 0;
    await sendMessage(liker, liked, `${"word ".repeat(60)}end`);
    const message = decryptPush(liked, (await pushTo(liked)).body) as { title: string; body: string };
    expect(message.title).toBe(`New message from ${liker.name}`);
    expect([...message.body].length).toBe(120);
    expect(message.body.startsWith("word word")).toBe(true);
    expect(message.body.endsWith("…")).toBe(true);
  });

  it("pushes a match to the member who liked first, in their language", async () => {
    const first = await newSubscriber({ language: "de" });
    const second = await newMember();
    const like = (from: Member, to: Member) => call(api, "POST", "/api/like.php", { token: from.token, host: from.host, body: { id: to.profileId } });
    expect((await like(first, second)).status).toBe(200);
    expect((await like(second, first)).status).toBe(200);
    expect(decryptPush(first, (await pushTo(first)).body)).toEqual({
      title: `Es ist ein Match mit ${second.name}`,
      body: "Ihr mögt euch. Sag Hallo!",
      url: "/de/likes/matches",
      tag: `match-${second.profileId}`,
    });
  });

  it("writes pushes as files with the offline adapter (PUSH_DELIVERY=files), keys left out", async () => {
    const dir = path.join(api.dataDir, "push");
    const target = { endpoint: "https://push.example.com/send/abc", p256dh: "p".repeat(87), auth: "a".repeat(22) };
    const payload = { title: "New message from Ann", body: "Hi", url: "/chats/1", tag: "chat-1" };
    expect(await createPushSender({ delivery: "files", dataDir: api.dataDir }).send(target, payload, { vapid: { ...deploymentKeys, subject: "mailto:a@example.com" }, ttlSeconds: 60, urgency: "high" })).toEqual({ kind: "sent", status: 201 });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const written = readFileSync(path.join(dir, files[0]!), "utf8");
    expect(JSON.parse(written)).toEqual({ pushService: "https://push.example.com", payload });
    expect(written).not.toContain(target.auth);
  });

  it("uses the deployment's key (DATA_DIR/vapid.json, made once) on a site without its own pair", async () => {
    const sender = await newMember({ host: "localhost", credits: 1000 });
    const recipient = await newSubscriber({ host: "localhost" });
    await sendMessage(sender, recipient, "Hello from the default site");
    const push = await pushTo(recipient);
    expect(checkVapid(push.headers).publicKey).toBe(deploymentKeys.publicKey);
    expect(JSON.parse(readFileSync(path.join(api.dataDir, "vapid.json"), "utf8"))).toEqual(deploymentKeys);
    expect(deploymentVapidKeys({ dataDir: api.dataDir })).toEqual(deploymentKeys);
    expect(decryptPush(recipient, push.body)).toMatchObject({ title: `New message from ${sender.name}`, body: "Hello from the default site" });
  });
});

describe("the queue", () => {
  it("two workers on one database send each push once (FOR UPDATE SKIP LOCKED)", async () => {
    const second = startPushWorker({
      db: api.db,
      logger: pino({ level: "silent" }),
      sender: webPushSender({ ca: certificate.cert, endpoints }),
      deploymentKeys,
      pollMs: 20,
    });
    try {
      const sender = await newMember({ credits: 1000 });
      const recipient = await newSubscriber();
      const bodies = Array.from({ length: 12 }, (_, i) => `Message number ${i + 1}`);
      await Promise.all(bodies.map((body) => sendMessage(sender, recipient, body)));
      await until("12 pushes", () => (received.length >= 12 ? true : undefined));
      // No job left (they are queued in each send's transaction): nothing more can be pushed, so none came twice.
      await until("the push jobs done", async () => ((await jobsOf(recipient)).length === 0 ? true : undefined));
      expect(received.map((r) => (decryptPush(recipient, r.body) as { body: string }).body).sort()).toEqual([...bodies].sort());
    } finally {
      await second.stop();
    }
  });
});

describe("who gets no push", () => {
  it("a member with an open stream gets none; once the page is hidden they do", async () => {
    const sender = await newMember({ credits: 100 });
    const recipient = await newSubscriber();
    const stream = await openStream(recipient);
    try {
      await sendMessage(sender, recipient, "You are here, no push");
      // Nothing is queued for a member who is there, so nothing can reach the push service.
      expect(await jobsOf(recipient)).toEqual([]);
      expect(received).toEqual([]);

      // The page goes to the background (the beacon): the member is away although the stream is open.
      const hidden = await call(api, "POST", "/api/page-hidden.php", { token: recipient.token, host: recipient.host, body: {} });
      expect(hidden.status).toBe(204);
      await sendMessage(sender, recipient, "Now you get a push");
      expect(decryptPush(recipient, (await pushTo(recipient)).body)).toMatchObject({ body: "Now you get a push" });
    } finally {
      stream.close();
    }
  });
});

describe("answers of the push service", () => {
  it("410 removes the subscription (and queues nothing for it afterwards)", async () => {
    const sender = await newMember({ credits: 100 });
    const recipient = await newSubscriber();
    answerStatus = 410;
    await sendMessage(sender, recipient, "To a browser that unsubscribed");
    await pushTo(recipient);
    await until("the subscription to be removed", async () => ((await api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, recipient.userId))).length === 0 ? true : undefined));
    received.length = 0;
    await sendMessage(sender, recipient, "Nobody to push to");
    expect(await jobsOf(recipient)).toEqual([]);
  });

  it("404 removes the subscription too", async () => {
    const sender = await newMember({ credits: 100 });
    const recipient = await newSubscriber();
    answerStatus = 404;
    await sendMessage(sender, recipient, "Unknown subscription");
    await pushTo(recipient);
    await until("the subscription to be removed", async () => ((await api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, recipient.userId))).length === 0 ? true : undefined));
  });

  it("another failure keeps the subscription and tries again later", async () => {
    const sender = await newMember({ credits: 100 });
    const recipient = await newSubscriber();
    answerStatus = 503;
    await sendMessage(sender, recipient, "Try again");
    await pushTo(recipient);
    const [job] = await until("the job to wait for a retry", async () => {
      const jobs = await jobsOf(recipient);
      return jobs[0] && jobs[0].attempts === 1 && jobs[0].runAfter.getTime() > Date.now() + 5000 && jobs[0].runAfter.getTime() < Date.now() + 120_000 ? jobs : undefined;
    });
    expect(await api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, recipient.userId))).toHaveLength(1);

    // The push service is back; the retry (brought forward here) delivers the same push.
    answerStatus = 201;
    received.length = 0;
    await api.db.update(pushJobs).set({ runAfter: new Date(Date.now() - 1000) }).where(eq(pushJobs.id, job!.id));
    expect(decryptPush(recipient, (await pushTo(recipient)).body)).toMatchObject({ body: "Try again" });
    await until("the job to be done", async () => ((await jobsOf(recipient)).length === 0 ? true : undefined));
  });
});

describe("endpoints that are no public push service", () => {
  it("are checked again before each send: a name re-pointed to loopback, or a stored loopback port, is never connected to and is removed", async () => {
    const sender = await newMember({ credits: 100 });
    // Subscribed while its name resolved to a public address; then the name answers 127.0.0.1 (DNS rebinding).
    const rebinding = await newMember();
    answers.set("rebind.example.com", ["93.184.215.14"]);
    const keys = { p256dh: createECDH("prime256v1").generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
    const subscribed = await call(api, "POST", "/api/user.php?push=1", { token: rebinding.token, host: rebinding.host, body: { subscription: { endpoint: "https://rebind.example.com/push/one", expirationTime: null, keys } } });
    expect(subscribed.status).toBe(200);
    answers.set("rebind.example.com", ["127.0.0.1"]);
    // Stored before endpoints were checked: the database's port on loopback.
    const stale = await newMember();
    await api.db.insert(pushSubscriptions).values({ userId: stale.userId, endpoint: "https://127.0.0.1:5432/x", p256dh: keys.p256dh, auth: keys.auth });

    await sendMessage(sender, rebinding, "Never sent to loopback");
    await sendMessage(sender, stale, "Nor to a database port");
    for (const member of [rebinding, stale]) {
      await until("the subscription to be removed", async () => ((await api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, member.userId))).length === 0 ? true : undefined));
    }
    expect(received).toEqual([]);
    answers.delete("rebind.example.com");
  });
});

/** A self-signed certificate for 127.0.0.1 (an X.509 DER built here and signed with node:crypto), so the test needs no openssl. */
function selfSignedCertificate(): { cert: string; key: string } {
  const der = (tag: number, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const length = body.length < 0x80 ? [body.length] : body.length < 0x100 ? [0x81, body.length] : [0x82, body.length >> 8, body.length & 0xff];
    return Buffer.concat([Buffer.from([tag, ...length]), body]);
  };
  const seq = (...parts: Buffer[]) => der(0x30, ...parts);
  const oid = (dotted: string) => {
    const [a = 0, b = 0, ...rest] = dotted.split(".").map(Number);
    const bytes = [40 * a + b];
    for (const n of rest) {
      const chunk = [n & 0x7f];
      for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
      bytes.push(...chunk);
    }
    return der(0x06, Buffer.from(bytes));
  };
  const utcTime = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().replace(/[-:T]/g, "").slice(2, 14)}Z`));
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ecdsaWithSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const name = seq(der(0x31, seq(oid("2.5.4.3"), der(0x0c, Buffer.from("127.0.0.1")))));
  const yes = der(0x01, Buffer.from([0xff]));
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, randomBytes(8).fill(0x01, 0, 1)),
    ecdsaWithSha256,
    name,
    seq(utcTime(new Date(Date.now() - 3600_000)), utcTime(new Date(Date.now() + 86_400_000))),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, seq(seq(oid("2.5.29.19"), yes, der(0x04, seq(yes))), seq(oid("2.5.29.17"), der(0x04, seq(der(0x87, Buffer.from([127, 0, 0, 1]))))))),
  );
  const certificate = seq(tbs, ecdsaWithSha256, der(0x03, Buffer.concat([Buffer.from([0]), sign("sha256", tbs, privateKey)])));
  const cert = `-----BEGIN CERTIFICATE-----\n${certificate.toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
  return { cert, key: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
}
