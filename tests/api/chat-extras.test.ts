import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { ChatResponse, GifsResponse, SendMessageResponse } from "#contract/chat";
import { giftIds } from "#contract/gifts";
import { photoMaxBytes } from "#contract/photos";
import { creditLedger, messages, profiles, sites, users } from "../../api/db/schema";
import { imageKeyOf } from "../../api/domain/chat-media";
import { createSession } from "../../api/domain/sessions";
import { tenorProvider } from "../../api/services/gifs";
import { sweepChatImages } from "../../api/jobs/sweep-chat-images";
import { call, cookieHeader, expectApiError, insertMember, startApi, testSessionSecret, type Harness } from "./harness";

/**
 * Chat extras over HTTP: gifts, icebreakers, GIFs and image messages, each charged once per key at its
 * price (gift_credits, message_credits, photo_credits); unknown gift and GIF ids refused; images refused when
 * they are not images or too large (nothing charged) and shown to the two members only; the Tenor adapter against
 * a local server answering in Tenor v2's documented shape.
 */
let api: Harness;
let prices: { message: number; gift: number; photo: number };

type Member = { userId: number; profileId: number; token: string };
let counter = 0;

async function newMember(credits = 500): Promise<Member> {
  const inserted = await insertMember(api, { passwordHash: "not-used" });
  await api.db.update(profiles).set({ name: `Extra${++counter}` }).where(eq(profiles.id, inserted.profileId));
  await api.db.update(users).set({ credits, paidUser: true }).where(eq(users.id, inserted.userId));
  if (credits) await api.db.insert(creditLedger).values({ userId: inserted.userId, delta: credits, balanceAfter: credits, reason: "purchase", reference: "extras-test" });
  const token = await createSession(api.db, inserted.userId, testSessionSecret);
  return { ...inserted, token };
}

const newKey = () => randomBytes(12).toString("base64url");
const balance = async (m: Member) => (await api.db.select({ credits: users.credits }).from(users).where(eq(users.id, m.userId)))[0]?.credits;
const ledger = async (m: Member) => api.db.select().from(creditLedger).where(eq(creditLedger.userId, m.userId));

const send = (from: Member, body: unknown) => call(api, "POST", "/api/message.php", { token: from.token, body });

function uploadImage(from: Member, fields: { to?: unknown; key?: unknown }, file: Blob | null, name = "photo.jpg"): Promise<Response> {
  const form = new FormData();
  if (fields.to !== undefined) form.append("to", String(fields.to));
  if (fields.key !== undefined) form.append("key", String(fields.key));
  if (file) form.append("photo", file, name);
  return fetch(`${api.baseUrl}/api/chat-image.php`, { method: "POST", headers: { "X-Forwarded-Host": "localhost", Cookie: cookieHeader(from.token) }, body: form });
}

let jpeg: Buffer;

beforeAll(async () => {
  api = await startApi();
  const [site] = await api.db.select().from(sites).where(eq(sites.domain, "localhost"));
  if (!site) throw new Error("no site");
  prices = { message: site.messageCredits, gift: site.giftCredits, photo: site.photoCredits };
  // A photo with EXIF (camera and GPS) to check that it is stripped.
  jpeg = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: "#c04060" } })
    .jpeg()
    .withExif({ IFD0: { Make: "SecretCam", Model: "Z9" } })
    .toBuffer();
}, 60_000);
afterAll(async () => {
  await api?.close();
});

describe("prices and idempotency", () => {
  it("the chat answers each price", async () => {
    const a = await newMember();
    const b = await newMember();
    const res = await call(api, "GET", `/api/chat.php?member=${b.profileId}`, { token: a.token });
    const chat = ChatResponse.parse(await res.json());
    expect(chat.gift_credits).toBe(prices.gift);
    expect(chat.photo_credits).toBe(prices.photo);
    expect(chat.message_credits).toBe(prices.message);
  });

  it("a gift costs gift_credits, once per key, and shows its picture to both", async () => {
    const a = await newMember();
    const b = await newMember();
    const key = newKey();
    const first = await send(a, { to: b.profileId, kind: "gift", body: "rose", key });
    expect(first.status, await first.clone().text()).toBe(201);
    const again = await send(a, { to: b.profileId, kind: "gift", body: "rose", key });
    expect(again.status).toBe(200);
    const answer = SendMessageResponse.parse(await again.json());
    expect(answer.repeated).toBe(true);
    expect(await balance(a)).toBe(500 - prices.gift);
    const entries = (await ledger(a)).filter((e) => e.reason === "gift");
    expect(entries.map((e) => e.delta)).toEqual([-prices.gift]);
    const seen = ChatResponse.parse(await (await call(api, "GET", `/api/chat.php?member=${a.profileId}`, { token: b.token })).json());
    const message = seen.conversation?.messages.at(-1);
    expect(message?.kind).toBe("gift");
    expect(message?.body).toBe("");
    expect(message?.media).toMatchObject({ url: "/gifts/rose.svg", ref: "rose" });
  });

  it("an icebreaker costs message_credits, once per key", async () => {
    const a = await newMember();
    const b = await newMember();
    const key = newKey();
    for (let i = 0; i < 2; i++) await send(a, { to: b.profileId, kind: "icebreaker", body: "Is your name Wi-Fi? I feel a connection.", key });
    expect(await balance(a)).toBe(500 - prices.message);
    const seen = ChatResponse.parse(await (await call(api, "GET", `/api/chat.php?member=${a.profileId}`, { token: b.token })).json());
    expect(seen.conversation?.messages.map((m) => [m.kind, m.body])).toEqual([["icebreaker", "Is your name Wi-Fi? I feel a connection."]]);
  });

  it("a GIF costs message_credits, once per key; its file is served by the api", async () => {
    const a = await newMember();
    const b = await newMember();
    const found = GifsResponse.parse(await (await call(api, "GET", "/api/gifs.php?q=kiss", { token: a.token })).json());
    const gif = found.gifs[0];
    if (!gif) throw new Error("no GIF found");
    const key = newKey();
    const first = await send(a, { to: b.profileId, kind: "gif", body: gif.id, key });
    expect(first.status).toBe(201);
    expect((await send(a, { to: b.profileId, kind: "gif", body: gif.id, key })).status).toBe(200);
    expect(await balance(a)).toBe(500 - prices.message);
    const message = SendMessageResponse.parse(await first.json()).message;
    expect(message.media?.url).toBe(`/api/gif.php?id=${gif.id}`);
    const file = await fetch(`${api.baseUrl}${message.media?.url}`, { headers: { "X-Forwarded-Host": "localhost" } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/gif");
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString("latin1")).toBe("GIF8");
  });

  it("an image costs photo_credits, once per key", async () => {
    const a = await newMember();
    const b = await newMember();
    const key = newKey();
    const first = await uploadImage(a, { to: b.profileId, key }, new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }));
    expect(first.status, await first.clone().text()).toBe(201);
    const again = await uploadImage(a, { to: b.profileId, key }, new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }));
    expect(again.status).toBe(200);
    expect(await balance(a)).toBe(500 - prices.photo);
    expect((await ledger(a)).filter((e) => e.reason === "photo").map((e) => e.delta)).toEqual([-prices.photo]);
  });

  it("without enough credits nothing is sent or charged", async () => {
    const a = await newMember(prices.gift - 1);
    const b = await newMember();
    const res = await send(a, { to: b.profileId, kind: "gift", body: "heart", key: newKey() });
    await expectApiError(res, 402, "not_enough_credits");
    expect(await balance(a)).toBe(prices.gift - 1);
  });
});

describe("unknown ids", () => {
  it("an unknown gift id gives 400", async () => {
    const a = await newMember();
    const b = await newMember();
    for (const body of ["diamond", "ROSE", "../rose", "rose.svg", "1"]) {
      const res = await send(a, { to: b.profileId, kind: "gift", body, key: newKey() });
      expect(res.status, body).toBe(400);
    }
    expect(await balance(a)).toBe(500);
  });

  it("an unknown GIF id gives 400", async () => {
    const a = await newMember();
    const b = await newMember();
    for (const body of ["c-heart-99", "c-nothing-1", "t-123", "x", "../../etc/passwd"]) {
      const res = await send(a, { to: b.profileId, kind: "gif", body, key: newKey() });
      expect(res.status, body).toBe(400);
    }
    expect(await balance(a)).toBe(500);
    expect((await fetch(`${api.baseUrl}/api/gif.php?id=c-heart-99`, { headers: { "X-Forwarded-Host": "localhost" } })).status).toBe(404);
    expect((await fetch(`${api.baseUrl}/api/gif.php?id=..%2Fx`, { headers: { "X-Forwarded-Host": "localhost" } })).status).toBe(400);
  });

  it("an unknown kind gives 400", async () => {
    const a = await newMember();
    const b = await newMember();
    await expectApiError(await send(a, { to: b.profileId, kind: "image", body: "img/x", key: newKey() }), 400, "validation_failed");
  });

  it("every gift is accepted", async () => {
    const a = await newMember(10_000);
    const b = await newMember();
    for (const gift of giftIds) expect((await send(a, { to: b.profileId, kind: "gift", body: gift, key: newKey() })).status).toBe(201);
  });
});

describe("GIF search", () => {
  it("finds GIFs in English and in the member's language", async () => {
    const a = await newMember();
    const search = async (q: string, locale?: string) => {
      const res = await call(api, "GET", `/api/gifs.php?q=${encodeURIComponent(q)}${locale ? `&locale=${locale}` : ""}`, { token: a.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      return GifsResponse.parse(await res.json()).gifs.map((g) => g.id);
    };
    expect(await search("heart")).toContain("c-heart-1");
    expect(await search("kusje", "nl")).toContain("c-kiss-1");
    expect(await search("heart", "nl")).toContain("c-heart-1");
    expect(await search("proost", "nl")).toContain("c-cheers-1");
    expect(await search("kippis", "fi")).toContain("c-cheers-1");
    expect(await search("skål", "sv")).toContain("c-cheers-1");
    expect(await search("kippis", "de")).toEqual([]);
    expect(await search("zzzz")).toEqual([]);
  });

  it("is for members, and refuses bad queries", async () => {
    expect((await call(api, "GET", "/api/gifs.php?q=hi")).status).toBe(403);
    const a = await newMember();
    for (const q of ["", "q=" + "x".repeat(60), "q=hi&locale=xx", "q[]=a"]) {
      expect((await call(api, "GET", `/api/gifs.php?${q}`, { token: a.token })).status, q).toBe(400);
    }
  });
});

describe("image messages", () => {
  it("strips metadata, resizes, and shows a thumbnail and the full image to the two members only", async () => {
    const a = await newMember();
    const b = await newMember();
    const outsider = await newMember();
    const res = await uploadImage(a, { to: b.profileId, key: newKey() }, new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }));
    expect(res.status).toBe(201);
    const { message } = SendMessageResponse.parse(await res.json());
    expect(message.kind).toBe("image");
    expect(message.body).toBe("");
    const media = message.media;
    if (!media) throw new Error("no media");
    expect(media.width).toBeLessThanOrEqual(320);
    for (const who of [a, b]) {
      for (const url of [media.url, media.thumb_url]) {
        const file = await call(api, "GET", url, { token: who.token });
        expect(file.status).toBe(200);
        expect(file.headers.get("content-type")).toBe("image/jpeg");
        expect(file.headers.get("cache-control")).toBe("private, no-store");
        const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
        expect(meta.exif).toBeUndefined();
        expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(url === media.url ? 1600 : 320);
      }
    }
    await expectApiError(await call(api, "GET", media.url, { token: outsider.token }), 404, "not_found");
    await expectApiError(await call(api, "GET", media.thumb_url, { token: outsider.token }), 404, "not_found");
    expect((await call(api, "GET", media.url)).status).toBe(403);
    // Not served by the public /uploads either.
    const direct = await fetch(`${api.baseUrl}/uploads/img/x.jpg`, { headers: { "X-Forwarded-Host": "localhost" } });
    expect(direct.status).toBe(404);
  });

  it("an image's files go when its conversation goes (a block), by the sweep; images still in a conversation stay", async () => {
    const a = await newMember();
    const b = await newMember();
    const c = await newMember();
    const image = new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" });
    const kept = SendMessageResponse.parse(await (await uploadImage(a, { to: c.profileId, key: newKey() }, image)).json()).message;
    const gone = SendMessageResponse.parse(await (await uploadImage(a, { to: b.profileId, key: newKey() }, image)).json()).message;
    const fileOf = (key: string) => path.join(api.dataDir, "chat-images", `${key}.jpg`);
    const keyOf = async (id: number) => imageKeyOf((await api.db.select({ body: messages.body }).from(messages).where(eq(messages.id, id)))[0]?.body ?? "") ?? "";
    const keptRef = await keyOf(kept.id);
    const goneRef = await keyOf(gone.id);
    expect([existsSync(fileOf(keptRef)), existsSync(fileOf(goneRef))]).toEqual([true, true]);
    // A young file is left alone (its message may be being written); an orphan older than the minimum age goes.
    expect((await sweepChatImages(api.db, { dataDir: api.dataDir })).removed).toEqual([]);
    expect((await call(api, "POST", "/api/block.php", { token: b.token, body: { id: a.profileId } })).status).toBeLessThan(300);
    const { removed } = await sweepChatImages(api.db, { dataDir: api.dataDir, minAgeMs: 0 });
    expect(removed).toEqual(expect.arrayContaining([`${goneRef.slice(4)}.jpg`, `${goneRef.slice(4)}-t.jpg`]));
    expect(removed).not.toContain(`${keptRef.slice(4)}.jpg`);
    expect([existsSync(fileOf(keptRef)), existsSync(fileOf(goneRef))]).toEqual([true, false]);
  });

  it("a text message's id is no image", async () => {
    const a = await newMember();
    const b = await newMember();
    const res = await send(a, { to: b.profileId, body: "hello", key: newKey() });
    const { message } = SendMessageResponse.parse(await res.json());
    await expectApiError(await call(api, "GET", `/api/chat-image.php?message=${message.id}`, { token: a.token }), 404, "not_found");
  });

  it("refuses a non-image with a clear message, and charges nothing", async () => {
    const a = await newMember();
    const b = await newMember();
    const res = await uploadImage(a, { to: b.profileId, key: newKey() }, new Blob(["%PDF-1.4 not an image"], { type: "image/jpeg" }), "evil.jpg");
    const error = await expectApiError(res, 415, "unsupported_image");
    expect(error.message).toMatch(/JPEG, PNG, WebP or HEIC/);
    expect(await balance(a)).toBe(500);
  });

  it("refuses an over-size file with a clear message, and charges nothing", async () => {
    const a = await newMember();
    const b = await newMember();
    const res = await uploadImage(a, { to: b.profileId, key: newKey() }, new Blob([new Uint8Array(photoMaxBytes + 10)], { type: "image/jpeg" }));
    const error = await expectApiError(res, 413, "file_too_large");
    expect(error.message).toMatch(/at most 10 MB/);
    expect(await balance(a)).toBe(500);
  });

  it("refuses missing fields and files", async () => {
    const a = await newMember();
    const b = await newMember();
    await expectApiError(await uploadImage(a, { to: b.profileId, key: newKey() }, null), 400, "validation_failed");
    await expectApiError(await uploadImage(a, { to: b.profileId }, new Blob([new Uint8Array(jpeg)])), 400, "validation_failed");
    await expectApiError(await uploadImage(a, { to: "x", key: newKey() }, new Blob([new Uint8Array(jpeg)])), 400, "validation_failed");
    await expectApiError(await uploadImage(a, { to: a.profileId, key: newKey() }, new Blob([new Uint8Array(jpeg)])), 404, "not_found");
    expect(await balance(a)).toBe(500);
  });
});

/** Tenor v2's documented search answer (developers.google.com/tenor/guides/response-objects-and-errors). */
function tenorAnswer(base: string) {
  return {
    results: [
      {
        id: "1234567890",
        title: "",
        content_description: "Cat blowing a kiss",
        itemurl: "https://tenor.com/view/x-1234567890",
        hasaudio: false,
        created: 1_600_000_000.1,
        tags: ["kiss"],
        flags: [],
        media_formats: {
          gif: { url: `${base}/media/full.gif`, dims: [498, 280], duration: 1.2, size: 120_000 },
          tinygif: { url: `${base}/media/tiny.gif`, dims: [220, 124], duration: 1.2, size: 20_000 },
        },
      },
      { id: "bad id!", media_formats: { gif: { url: `${base}/media/full.gif` } } },
      { id: "999", media_formats: { gif: { url: "https://evil.example/x.gif", dims: [1, 1] } } },
    ],
    next: "CAgQ",
  };
}

describe("the Tenor adapter against a local server", () => {
  let server: Server;
  let base: string;
  let cacheDir: string;
  const requests: URL[] = [];
  const gifBytes = Buffer.from("GIF89a-local-test-gif");

  beforeAll(async () => {
    cacheDir = mkdtempSync(path.join(tmpdir(), "rdv-tenor-"));
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      requests.push(url);
      if (url.pathname === "/v2/search") {
        if (url.searchParams.get("key") !== "test-key") {
          res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { code: 400, message: "API key not valid", status: "INVALID_ARGUMENT" } }));
          return;
        }
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(tenorAnswer(base)));
        return;
      }
      if (url.pathname.startsWith("/media/")) {
        res.writeHead(200, { "Content-Type": "image/gif" }).end(gifBytes);
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("searches with the documented parameters and reads the documented shape", async () => {
    const tenor = tenorProvider({ key: "test-key", clientKey: "rdv-test", baseUrl: base, cacheDir });
    const gifs = await tenor.search("kusje", "nl");
    expect(gifs).toEqual([{ id: "t-1234567890", width: 498, height: 280, label: "Cat blowing a kiss" }]);
    const asked = requests.find((r) => r.pathname === "/v2/search");
    expect(asked?.searchParams.get("q")).toBe("kusje");
    expect(asked?.searchParams.get("client_key")).toBe("rdv-test");
    expect(asked?.searchParams.get("locale")).toBe("nl_NL");
    expect(asked?.searchParams.get("media_filter")).toBe("gif,tinygif");
    expect(Number(asked?.searchParams.get("limit"))).toBeGreaterThan(0);
  });

  it("fetches a GIF's media once and keeps it (a new instance reads the cache from disk)", async () => {
    const tenor = tenorProvider({ key: "test-key", clientKey: "rdv-test", baseUrl: base, cacheDir });
    await tenor.search("kiss", "en");
    const before = requests.filter((r) => r.pathname.startsWith("/media/")).length;
    expect((await tenor.file("t-1234567890", "full"))?.body).toEqual(gifBytes);
    expect((await tenor.file("t-1234567890", "full"))?.body).toEqual(gifBytes);
    const later = tenorProvider({ key: "test-key", clientKey: "rdv-test", baseUrl: base, cacheDir });
    expect(await later.find("t-1234567890")).toMatchObject({ width: 498 });
    expect((await later.file("t-1234567890", "full"))?.body).toEqual(gifBytes);
    expect(requests.filter((r) => r.pathname.startsWith("/media/")).length - before).toBe(1);
    expect(await later.find("t-999")).toBeNull();
  });

  it("through the api: search, send and view with GIF_PROVIDER=tenor; a failing provider answers no results", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { GIF_PROVIDER: "tenor", TENOR_API_KEY: "test-key", TENOR_BASE_URL: base });
    let tenorApi: Harness | undefined;
    try {
      tenorApi = await startApi();
      const inserted = await insertMember(tenorApi, { passwordHash: "x" });
      const other = await insertMember(tenorApi, { passwordHash: "x" });
      await tenorApi.db.update(users).set({ credits: 100, paidUser: true }).where(eq(users.id, inserted.userId));
      const token = await createSession(tenorApi.db, inserted.userId, testSessionSecret);
      const found = GifsResponse.parse(await (await call(tenorApi, "GET", "/api/gifs.php?q=kiss", { token })).json());
      expect(found.gifs.map((g) => g.url)).toEqual(["/api/gif.php?id=t-1234567890"]);
      const sent = await call(tenorApi, "POST", "/api/message.php", { token, body: { to: other.profileId, kind: "gif", body: "t-1234567890", key: newKey() } });
      expect(sent.status).toBe(201);
      const file = await fetch(`${tenorApi.baseUrl}/api/gif.php?id=t-1234567890`, { headers: { "X-Forwarded-Host": "localhost" } });
      expect(Buffer.from(await file.arrayBuffer())).toEqual(gifBytes);
      // A catalogue GIF still shows after the switch.
      expect((await fetch(`${tenorApi.baseUrl}/api/gif.php?id=c-heart-1`, { headers: { "X-Forwarded-Host": "localhost" } })).status).toBe(200);
    } finally {
      process.env = saved;
      await tenorApi?.close();
    }
    const broken = tenorProvider({ key: "wrong", clientKey: "x", baseUrl: base, cacheDir });
    await expect(broken.search("kiss", "en")).rejects.toThrow();
  });
});
