import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { MemberResponse } from "#contract/members";
import { PhotoUploadResponse, PhotosResponse, photoLimits, photoMaxBytes, visiblePhotoCount } from "#contract/photos";
import { UserResponse } from "#contract/user";
import { photos, sites, users } from "../../api/db/schema";
import { clearSiteCache } from "../../api/domain/sites";
import { hashPassword } from "../../api/domain/passwords";
import { call, cookieHeader, expectApiError, insertMember, login, startApi, type Harness } from "./harness";

/** A member's own photos (list, upload, main, delete) and how many others see (docs/product.md §5, §6, §9). */
let api: Harness;
const password = "photo-test-password";
let passwordHash: string;

type TestMember = { userId: number; profileId: number; siteId: number; token: string };

async function newMember(options: { premium?: boolean } = {}): Promise<TestMember> {
  const member = await insertMember(api, { passwordHash });
  if (options.premium) await api.db.update(users).set({ paidUser: true }).where(eq(users.id, member.userId));
  return { ...member, token: await login(api.baseUrl, member.email, password) };
}

function upload(token: string | undefined, body: Buffer, options: { filename?: string; type?: string; field?: string } = {}): Promise<Response> {
  const form = new FormData();
  form.append(options.field ?? "photo", new Blob([new Uint8Array(body)], { type: options.type ?? "image/jpeg" }), options.filename ?? "photo.jpg");
  const headers: Record<string, string> = { "X-Forwarded-Host": "localhost" };
  if (token) headers.Cookie = cookieHeader(token);
  return fetch(`${api.baseUrl}/api/photos.php`, { method: "POST", headers, body: form });
}

async function uploaded(token: string, body: Buffer, options: { filename?: string; type?: string } = {}) {
  const res = await upload(token, body, options);
  expect(res.status, await res.clone().text()).toBe(201);
  return PhotoUploadResponse.parse(await res.json());
}

async function list(token: string) {
  const res = await call(api, "GET", "/api/photos.php", { token });
  expect(res.status).toBe(200);
  return PhotosResponse.parse(await res.json());
}

const uploadsDir = () => path.join(api.dataDir, "uploads");
const stored = (key: string) => path.join(uploadsDir(), key);
const storedPhotoFiles = () => (existsSync(stored("photos")) ? readdirSync(stored("photos")).length : 0);

function image(format: "jpeg" | "png" | "webp", width = 900, height = 600): Promise<Buffer> {
  const pipeline = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return pipeline[format]().toBuffer();
}

/** Photo rows inserted straight into the database (the limit logic does not need 25 real uploads). */
async function insertPhotos(member: { profileId: number; siteId: number }, count: number): Promise<void> {
  const { profileId, siteId } = member;
  const rows = Array.from({ length: count }, (_, i) => ({ profileId, siteId, filename: `seeded/${profileId}-${i}.jpg`, thumbFilename: `seeded/${profileId}-${i}-t.jpg`, status: "active" as const, position: i }));
  await api.db.insert(photos).values(rows);
}

beforeAll(async () => {
  api = await startApi();
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

describe("visitors", () => {
  it("get authentication_required on every photo endpoint", async () => {
    await expectApiError(await call(api, "GET", "/api/photos.php"), 403, "authentication_required");
    await expectApiError(await upload(undefined, await image("jpeg")), 403, "authentication_required");
    await expectApiError(await call(api, "PUT", "/api/photo.php", { body: { id: 1, main: true } }), 403, "authentication_required");
    await expectApiError(await call(api, "DELETE", "/api/photo.php?id=1"), 403, "authentication_required");
  });
});

describe("POST /api/photos.php", () => {
  it("takes JPEG, PNG and WebP, stores a smaller re-encoded photo and a square thumbnail under unguessable names", async () => {
    const member = await newMember();
    expect(await list(member.token)).toEqual({ photos: [], limit: photoLimits.free, count: 0, rejected: [] });
    const formats = ["jpeg", "png", "webp"] as const;
    for (const [index, format] of formats.entries()) {
      const body = await uploaded(member.token, await image(format, 2400, 1200), { filename: `holiday.${format}`, type: `image/${format}` });
      expect(body.count).toBe(index + 1);
      expect(body.photo.status).toBe("active");
      expect(body.photo.main).toBe(index === 0);
      for (const key of [body.photo.filename, body.photo.thumb_filename]) {
        expect(key).toMatch(/^photos\/[\w-]{24}\.jpg$/);
        expect(existsSync(stored(key)), key).toBe(true);
      }
      expect(body.photo.filename).not.toBe(body.photo.thumb_filename);
      const full = readFileSync(stored(body.photo.filename));
      const thumb = readFileSync(stored(body.photo.thumb_filename));
      expect(thumb.length).toBeLessThan(full.length);
      expect(await sharp(full).metadata()).toMatchObject({ format: "jpeg", width: 1600, height: 800 });
      expect(await sharp(thumb).metadata()).toMatchObject({ format: "jpeg", width: 320, height: 320 });
    }
    const after = await list(member.token);
    expect(after.photos.map((p) => p.main)).toEqual([true, false, false]);
    expect(after.count).toBe(3);
  });

  it("strips EXIF (here a copyright note) and keeps the orientation it described", async () => {
    const member = await newMember();
    const source = await sharp({ create: { width: 400, height: 200, channels: 3, background: "#3366cc" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Copyright: "exif-marker-4711" } })
      .toBuffer();
    const sourceMeta = await sharp(source).metadata();
    expect(sourceMeta.exif).toBeDefined();
    expect(source.includes("exif-marker-4711")).toBe(true);

    const { photo } = await uploaded(member.token, source);
    for (const key of [photo.filename, photo.thumb_filename]) {
      const file = readFileSync(stored(key));
      const meta = await sharp(file).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(file.includes("exif-marker-4711")).toBe(false);
    }
    // Orientation 6 means "turn a quarter": the stored photo is upright, taller than wide.
    expect(await sharp(readFileSync(stored(photo.filename))).metadata()).toMatchObject({ width: 200, height: 400 });
  });

  it("decides by content: a text file named photo.jpg is refused with 415 and nothing is stored", async () => {
    const member = await newMember();
    const res = await upload(member.token, Buffer.from("This is not a photo, just text.\n".repeat(20)), { filename: "photo.jpg", type: "image/jpeg" });
    await expectApiError(res, 415, "unsupported_image");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await expectApiError(await upload(member.token, svg, { filename: "photo.png", type: "image/png" }), 415, "unsupported_image");
    const truncated = (await image("jpeg")).subarray(0, 300);
    await expectApiError(await upload(member.token, truncated), 415, "unsupported_image");
    expect((await list(member.token)).count).toBe(0);
  });

  it("accepts a real image whatever name and type the client gives it", async () => {
    const member = await newMember();
    const body = await uploaded(member.token, await image("png"), { filename: "notes.txt", type: "text/plain" });
    expect(body.count).toBe(1);
  });

  it("refuses a file over the size limit with 413 file_too_large", async () => {
    const member = await newMember();
    const res = await upload(member.token, Buffer.alloc(photoMaxBytes + 1, 1));
    const error = await expectApiError(res, 413, "file_too_large");
    expect(error.params).toEqual({ megabytes: 10 });
    expect((await list(member.token)).count).toBe(0);
  });

  it("answers 400 without a file or with another field name", async () => {
    const member = await newMember();
    await expectApiError(await call(api, "POST", "/api/photos.php", { token: member.token, body: { photo: "x" } }), 400, "validation_failed");
    await expectApiError(await upload(member.token, await image("jpeg"), { field: "avatar" }), 400, "validation_failed");
    await expectApiError(await upload(member.token, Buffer.alloc(0)), 400, "validation_failed");
  });

  it("gives a free member 3 photos, then premium_required", async () => {
    const member = await newMember();
    const jpeg = await image("jpeg", 300, 300);
    for (let i = 0; i < photoLimits.free; i++) await uploaded(member.token, jpeg);
    const error = await expectApiError(await upload(member.token, jpeg), 403, "premium_required");
    expect(error.message).toBe("This feature is only available for premium members");
    expect(await list(member.token)).toMatchObject({ count: 3, limit: 3 });
  });

  it("lets a premium member go beyond 3, up to 25, then photo_limit_reached", async () => {
    const member = await newMember({ premium: true });
    await insertPhotos(member, 3);
    const jpeg = await image("jpeg", 300, 300);
    expect((await uploaded(member.token, jpeg)).count).toBe(4);
    expect((await list(member.token)).limit).toBe(photoLimits.premium);
    await insertPhotos(member, photoLimits.premium - 5);
    expect((await uploaded(member.token, jpeg)).count).toBe(25);
    const error = await expectApiError(await upload(member.token, jpeg), 403, "photo_limit_reached");
    expect(error.params).toEqual({ limit: 25 });
    expect((await list(member.token)).count).toBe(25);
  });

  it("never passes the limit with parallel uploads", async () => {
    const member = await newMember();
    await insertPhotos(member, photoLimits.free - 1);
    const jpeg = await image("jpeg", 300, 300);
    const filesBefore = storedPhotoFiles();
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(member.token, jpeg)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 403, 403, 403, 403]);
    expect((await list(member.token)).count).toBe(photoLimits.free);
    const onDisk = (await list(member.token)).photos.filter((p) => p.filename.startsWith("photos/"));
    expect(onDisk).toHaveLength(1);
    // The refused uploads' files are gone again: only the photo and its thumbnail were added.
    expect(storedPhotoFiles()).toBe(filesBefore + 2);
  });
});

describe("PUT and DELETE /api/photo.php", () => {
  it("makes a photo the main one, shown as main_image by GET /api/user.php", async () => {
    const member = await newMember();
    const first = await uploaded(member.token, await image("jpeg", 300, 300));
    const second = await uploaded(member.token, await image("png", 300, 300));
    const third = await uploaded(member.token, await image("webp", 300, 300));
    const res = await call(api, "PUT", "/api/photo.php", { token: member.token, body: { id: third.photo.id, main: true } });
    expect(res.status).toBe(200);
    const body = PhotosResponse.parse(await res.json());
    expect(body.photos.map((p) => [p.id, p.main])).toEqual([
      [third.photo.id, true],
      [first.photo.id, false],
      [second.photo.id, false],
    ]);
    const user = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: member.token })).json()).user;
    expect(user?.profile.main_image?.filename).toBe(third.photo.filename);
    expect(user?.profile.main_image?.thumb_filename).toBe(third.photo.thumb_filename);
  });

  it("deletes a photo with its files; the next one becomes main", async () => {
    const member = await newMember();
    const first = await uploaded(member.token, await image("jpeg", 300, 300));
    const second = await uploaded(member.token, await image("jpeg", 300, 300));
    const res = await call(api, "DELETE", `/api/photo.php?id=${first.photo.id}`, { token: member.token });
    expect(res.status).toBe(200);
    const body = PhotosResponse.parse(await res.json());
    expect(body.photos.map((p) => [p.id, p.main])).toEqual([[second.photo.id, true]]);
    expect(existsSync(stored(first.photo.filename))).toBe(false);
    expect(existsSync(stored(first.photo.thumb_filename))).toBe(false);
    expect(existsSync(stored(second.photo.filename))).toBe(true);
    const user = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: member.token })).json()).user;
    expect(user?.profile.main_image?.filename).toBe(second.photo.filename);
  });

  it("answers 404 to another member's photo and leaves it alone", async () => {
    const owner = await newMember();
    const intruder = await newMember();
    const mine = await uploaded(intruder.token, await image("jpeg", 300, 300));
    const { photo } = await uploaded(owner.token, await image("jpeg", 300, 300));
    await uploaded(owner.token, await image("jpeg", 300, 300));
    await expectApiError(await call(api, "DELETE", `/api/photo.php?id=${photo.id}`, { token: intruder.token }), 404, "not_found");
    await expectApiError(await call(api, "PUT", "/api/photo.php", { token: intruder.token, body: { id: photo.id, main: true } }), 404, "not_found");
    const after = await list(owner.token);
    expect(after.photos.map((p) => [p.id, p.main])[0]).toEqual([photo.id, true]);
    expect(existsSync(stored(photo.filename))).toBe(true);
    expect((await list(intruder.token)).photos.map((p) => p.id)).toEqual([mine.photo.id]);
  });

  it("answers 400 to input that does not fit", async () => {
    const member = await newMember();
    await expectApiError(await call(api, "DELETE", "/api/photo.php?id=abc", { token: member.token }), 400, "validation_failed");
    await expectApiError(await call(api, "PUT", "/api/photo.php", { token: member.token, body: { id: 1, main: false } }), 400, "validation_failed");
    await expectApiError(await call(api, "PUT", "/api/photo.php", { token: member.token, body: { id: "x" } }), 400, "validation_failed");
  });
});

describe("GET /api/member.php photos", () => {
  let shown: TestMember;

  beforeAll(async () => {
    shown = await newMember();
    await insertPhotos(shown, 5);
    // A pending photo is never shown and never counted.
    await api.db.insert(photos).values({ profileId: shown.profileId, siteId: shown.siteId, filename: "seeded/pending.jpg", thumbFilename: "seeded/pending-t.jpg", status: "pending", position: 9 });
  });

  async function profileFor(token?: string) {
    const res = await call(api, "GET", `/api/member.php?id=${shown.profileId}`, { token });
    expect(res.status).toBe(200);
    return MemberResponse.parse(await res.json()).profile;
  }

  it("shows a free viewer the first photos and the total count", async () => {
    const viewer = await newMember();
    const profile = await profileFor(viewer.token);
    expect(profile.photo_count).toBe(5);
    expect(profile.photos.map((p) => p.filename)).toEqual([0, 1, 2].map((i) => `seeded/${shown.profileId}-${i}.jpg`));
    expect(profile.photos).toHaveLength(visiblePhotoCount.free);
  });

  it("shows a premium viewer every active photo", async () => {
    const viewer = await newMember({ premium: true });
    const profile = await profileFor(viewer.token);
    expect(profile.photo_count).toBe(5);
    expect(profile.photos.map((p) => p.filename)).toEqual([0, 1, 2, 3, 4].map((i) => `seeded/${shown.profileId}-${i}.jpg`));
  });

  it("shows a visitor (where logged-out search is on) the main photo only", async () => {
    const [site] = await api.db.select().from(sites).where(eq(sites.domain, "localhost"));
    await api.db.update(sites).set({ loggedOutSearch: true }).where(eq(sites.domain, "localhost"));
    clearSiteCache();
    try {
      const profile = await profileFor();
      expect(profile.photo_count).toBe(5);
      expect(profile.photos.map((p) => p.filename)).toEqual([`seeded/${shown.profileId}-0.jpg`]);
    } finally {
      await api.db.update(sites).set({ loggedOutSearch: site?.loggedOutSearch ?? false }).where(eq(sites.domain, "localhost"));
      clearSiteCache();
    }
  });
});
