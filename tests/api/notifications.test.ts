import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { MailEventsResponse, NotificationSettingsResponse } from "#contract/notifications";
import { UserResponse } from "#contract/user";
import { memberEvents, memberPresence, users } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { createSession } from "../../api/domain/sessions";
import { unsubscribeKeyOf, unsubscribeToken } from "../../api/domain/notifications";
import { pushWanted } from "../../api/jobs/push";
import { startNotificationMailJob } from "../../api/jobs/notification-mails";
import { createMailer } from "../../api/services/mail";
import { call, expectApiError, insertMember, leakingLogLines, postJson, readMails, startApi, testSessionSecret, tokenFromMail, type Harness } from "./harness";

/**
 * Notifications over HTTP: the settings (/api/notifications.php), RFC 8058 one-click unsubscribe, the mail
 * provider's events (/api/mail-events.php, shared secret), and notification mails only where settings allow.
 */

const secret = "mail-events-secret-for-tests-0123456789";
const password = "notify-password-123";
let api: Harness;
let passwordHash: string;

beforeAll(async () => {
  api = await startApi({ env: { MAIL_EVENTS_SECRET: secret } });
  passwordHash = await hashPassword(password);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

async function member(options: { language?: string; status?: "active" | "not_confirmed"; email?: string } = {}) {
  const m = await insertMember(api, { passwordHash, ...options });
  const token = await createSession(api.db, m.userId, testSessionSecret);
  return { ...m, token };
}

async function reasonsOf(userId: number): Promise<string[]> {
  const [row] = await api.db.select({ reasons: users.notificationsDisabled }).from(users).where(eq(users.id, userId));
  return row?.reasons ?? [];
}

/** The raw .eml files (their headers: mailparser's text view leaves them out) of mails to `to`, oldest first. */
function rawMailsTo(to: string): string[] {
  const dir = path.join(api.dataDir, "mail");
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(path.join(dir, f), "utf8")).filter((raw) => raw.toLowerCase().includes(`to: ${to.toLowerCase()}`));
}

/** The List-Unsubscribe URL of a raw mail (headers may be folded over lines). */
function listUnsubscribeOf(raw: string): URL {
  const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  const value = /^List-Unsubscribe: <([^>]+)>/m.exec(headers)?.[1];
  expect(value, "List-Unsubscribe header").toBeTruthy();
  expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  return new URL(value!);
}

const mailEvents = (body: unknown, headers: Record<string, string> = { Authorization: `Bearer ${secret}` }) => postJson(api.baseUrl, "/api/mail-events.php", body, headers);

describe("POST /api/mail-events.php", () => {
  it("needs the shared secret: missing 401, wrong 403, and nothing changes", async () => {
    const m = await member();
    const body = { events: [{ type: "bounce", email: m.email }] };
    const missing = await mailEvents(body, {});
    await expectApiError(missing, 401, "secret_required");
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    await expectApiError(await mailEvents(body, { Authorization: "Bearer not-the-secret" }), 403, "secret_wrong");
    await expectApiError(await mailEvents(body, { Authorization: `Basic ${Buffer.from(`x:${secret}`).toString("base64")}` }), 401, "secret_required");
    await expectApiError(await mailEvents(body, { Authorization: `Bearer ${secret}x` }), 403, "secret_wrong");
    expect(await reasonsOf(m.userId)).toEqual([]);
  });

  it("refuses bad JSON and events outside the format with 400 validation_failed", async () => {
    await expectApiError(await mailEvents("{not json"), 400, "validation_failed");
    await expectApiError(await mailEvents({ events: [] }), 400, "validation_failed");
    const wrongType = await expectApiError(await mailEvents({ events: [{ type: "opened", email: "a@example.com" }] }), 400, "validation_failed");
    expect(Object.keys(wrongType.fields ?? {})).toContain("events.0.type");
    await expectApiError(await mailEvents({ events: [{ type: "bounce", email: "not-an-address" }] }), 400, "validation_failed");
    await expectApiError(await mailEvents({ events: [{ type: "bounce", email: "a@example.com", occurred_at: "yesterday" }] }), 400, "validation_failed");
    await expectApiError(await mailEvents({ events: [{ type: "bounce", email: "a@example.com", extra: 1 }] }), 400, "validation_failed");
  });

  it("records bounce for a hard bounce and fbl for a complaint, once each; soft bounces and unknown addresses change nothing", async () => {
    const m = await member();
    const res = await mailEvents({
      events: [
        { type: "bounce", email: m.email.toUpperCase(), occurred_at: "2026-11-25T10:00:00Z" },
        { type: "bounce", email: m.email, bounce_type: "hard" },
        { type: "complaint", email: m.email },
        { type: "bounce", email: m.email, bounce_type: "soft" },
        { type: "complaint", email: "nobody-here@example.com" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(MailEventsResponse.parse(await res.json())).toEqual({ applied: 3, unknown: 1, ignored: 1 });
    expect(await reasonsOf(m.userId)).toEqual(["bounce", "fbl"]);
    // The member sees it (docs/product.md §3 user.notifications_disabled).
    const me = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: m.token })).json());
    expect(me.user?.notifications_disabled).toEqual(["bounce", "fbl"]);
  });

  it("narrows to one site when the event names it", async () => {
    const m = await member();
    const other = await mailEvents({ events: [{ type: "complaint", email: m.email, site: "no-such-site.example" }] });
    expect(MailEventsResponse.parse(await other.json())).toEqual({ applied: 0, unknown: 1, ignored: 0 });
    expect(await reasonsOf(m.userId)).toEqual([]);
    const own = await mailEvents({ events: [{ type: "complaint", email: m.email, site: "localhost" }] });
    expect(MailEventsResponse.parse(await own.json()).applied).toBe(1);
    expect(await reasonsOf(m.userId)).toEqual(["fbl"]);
  });

  it("answers 404 where MAIL_EVENTS_SECRET is not configured", async () => {
    const bare = await startApi({ env: { MAIL_EVENTS_SECRET: "" } });
    try {
      await expectApiError(await postJson(bare.baseUrl, "/api/mail-events.php", { events: [{ type: "bounce", email: "a@example.com" }] }, { Authorization: `Bearer ${secret}` }), 404, "not_found");
    } finally {
      await bare.close();
    }
  }, 30_000);
});

describe("one-click unsubscribe (RFC 8058)", () => {
  it("every account mail carries List-Unsubscribe; its one-click POST without a session records listunsubscribe", async () => {
    const m = await member();
    const reset = await call(api, "POST", "/api/password-reset.php", { body: { email: m.email } });
    expect(reset.status).toBe(200);
    const [raw] = rawMailsTo(m.email);
    const url = listUnsubscribeOf(raw!);
    expect(url.pathname).toBe("/api/unsubscribe.php");
    expect(url.origin).toBe("http://localhost");

    const oneClick = () =>
      fetch(`${api.baseUrl}${url.pathname}${url.search}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-Host": "localhost" },
        body: "List-Unsubscribe=One-Click",
      });
    const first = await oneClick();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ unsubscribed: true });
    expect(await reasonsOf(m.userId)).toEqual(["listunsubscribe"]);
    // A provider that posts twice changes nothing more.
    expect((await oneClick()).status).toBe(200);
    expect(await reasonsOf(m.userId)).toEqual(["listunsubscribe"]);
    expect(leakingLogLines(api, [url.searchParams.get("token")!])).toEqual([]);
  });

  it("refuses made-up, malformed, missing and other sites' tokens with 4xx and changes nothing", async () => {
    const m = await member();
    const key = unsubscribeKeyOf(testSessionSecret);
    const good = unsubscribeToken(key, 1, m.userId);
    const forged = `${m.userId}.${"A".repeat(43)}`;
    const otherUser = unsubscribeToken(key, 1, m.userId).replace(/^\d+/, String(m.userId + 1));
    const otherSite = unsubscribeToken(key, 999, m.userId);
    const post = (query: string, body = "List-Unsubscribe=One-Click", type = "application/x-www-form-urlencoded") =>
      fetch(`${api.baseUrl}/api/unsubscribe.php${query}`, { method: "POST", headers: { "Content-Type": type, "X-Forwarded-Host": "localhost" }, body });
    await expectApiError(await post(`?token=${forged}`), 400, "link_invalid");
    await expectApiError(await post(`?token=${otherUser}`), 400, "link_invalid");
    await expectApiError(await post(`?token=${otherSite}`), 400, "link_invalid");
    await expectApiError(await post(`?token=${encodeURIComponent(`${good}\u0000`)}`), 400, "validation_failed");
    await expectApiError(await post("?token=99999999999.x"), 400, "validation_failed");
    await expectApiError(await post(""), 400, "validation_failed");
    await expectApiError(await post(`?token=${good}`, "List-Unsubscribe=Maybe"), 400, "validation_failed");
    expect((await post(`?token=${good}&token=${good}`)).status).toBe(400);
    expect((await post(`?token=${good}`, "x".repeat(10_000))).status).toBeLessThan(500);
    expect(await reasonsOf(m.userId)).toEqual([]);
    // The web page's call: the token in a JSON body.
    const json = await call(api, "POST", "/api/unsubscribe.php", { body: { token: good } });
    expect(json.status).toBe(200);
    expect(await reasonsOf(m.userId)).toEqual(["listunsubscribe"]);
  });

  it("sends a person who opens the link to web's confirmation page in their language", async () => {
    const m = await member({ language: "nl" });
    const token = unsubscribeToken(unsubscribeKeyOf(testSessionSecret), 1, m.userId);
    const res = await fetch(`${api.baseUrl}/api/unsubscribe.php?token=${token}`, { headers: { "X-Forwarded-Host": "localhost" }, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/nl/unsubscribe?token=${token}`);
    const bad = await fetch(`${api.baseUrl}/api/unsubscribe.php?token=%00`, { headers: { "X-Forwarded-Host": "localhost" }, redirect: "manual" });
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toBe("/unsubscribe");
    // Opening the link alone unsubscribes nobody.
    expect(await reasonsOf(m.userId)).toEqual([]);
  });
});

describe("/api/notifications.php", () => {
  it("is for members only", async () => {
    await expectApiError(await call(api, "GET", "/api/notifications.php"), 403, "authentication_required");
    await expectApiError(await call(api, "PUT", "/api/notifications.php", { body: { settings: {} } }), 403, "authentication_required");
    await expectApiError(await call(api, "POST", "/api/notifications-resume.php", { body: {} }), 403, "authentication_required");
  });

  it("starts with every switch on, keeps what is saved, and answers the member with with_user=1", async () => {
    const m = await member();
    const first = await call(api, "GET", "/api/notifications.php", { token: m.token });
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    const initial = NotificationSettingsResponse.parse(await first.json());
    for (const kind of ["messages", "likes", "matches", "news"] as const) expect(initial.settings[kind]).toEqual({ email: true, push: true });
    const settings = { ...initial.settings, likes: { email: false, push: true }, news: { email: false, push: false } };
    const saved = await call(api, "PUT", "/api/notifications.php", { token: m.token, body: { settings } });
    expect(saved.status).toBe(200);
    expect(NotificationSettingsResponse.parse(await saved.json()).settings).toEqual(settings);
    const again = NotificationSettingsResponse.parse(await (await call(api, "GET", "/api/notifications.php?with_user=1", { token: m.token })).json());
    expect(again.settings).toEqual(settings);
    expect(again.me?.user?.id).toBe(m.userId);
    const [row] = await api.db.select({ off: users.notificationSettings }).from(users).where(eq(users.id, m.userId));
    expect(row?.off).toEqual(["likes:email", "news:email", "news:push"]);
  });

  it("refuses incomplete or wrongly typed settings", async () => {
    const m = await member();
    const on = { email: true, push: true };
    await expectApiError(await call(api, "PUT", "/api/notifications.php", { token: m.token, body: { settings: { messages: on, likes: on, matches: on } } }), 400, "validation_failed");
    await expectApiError(await call(api, "PUT", "/api/notifications.php", { token: m.token, body: { settings: { messages: on, likes: on, matches: on, news: { email: "yes", push: true } } } }), 400, "validation_failed");
    await expectApiError(await call(api, "PUT", "/api/notifications.php", { token: m.token, body: { settings: { messages: on, likes: on, matches: on, news: on, gifts: on } } }), 400, "validation_failed");
  });

  it("turning e-mail back on lifts an unsubscribe and a spam complaint, not a bounce; a new address lifts the bounce", async () => {
    const m = await member();
    await api.db.update(users).set({ notificationsDisabled: ["listunsubscribe", "fbl", "bounce"] }).where(eq(users.id, m.userId));
    const resumed = await call(api, "POST", "/api/notifications-resume.php", { token: m.token, body: {} });
    expect(resumed.status).toBe(200);
    expect(NotificationSettingsResponse.parse(await resumed.json()).notifications_disabled).toEqual(["bounce"]);

    const newEmail = `moved-${Date.now()}@example.com`;
    expect((await call(api, "POST", "/api/mail-change.php", { token: m.token, body: { email: newEmail, password } })).status).toBe(200);
    const token = await tokenFromMail(api, newEmail, "/mail-change/do");
    expect((await call(api, "POST", "/api/mail-change-do.php", { body: { token } })).status).toBe(200);
    expect(await reasonsOf(m.userId)).toEqual([]);
  });
});

describe("notification mails", () => {
  const logger = pino({ level: "silent" });
  let job: ReturnType<typeof startNotificationMailJob>;
  beforeAll(() => {
    const mailer = createMailer({ dataDir: api.dataDir, logger });
    job = startNotificationMailJob({ db: api.db, mailer, logger, unsubscribeKey: unsubscribeKeyOf(testSessionSecret), publicUrl: "https://dates.example", intervalMinutes: 60 });
  });

  async function liked(recipient: { profileId: number }, by: { profileId: number }, kind: "like" | "match" = "like") {
    await api.db.insert(memberEvents).values({ profileId: recipient.profileId, fromProfileId: by.profileId, kind });
  }
  const notificationMails = async (to: string) => (await readMails(api)).filter((mail) => mail.to === to && /notify_/.test(mail.file));

  it("mails a like to an away member once, with the unsubscribe header, and at most once per kind per interval", async () => {
    const recipient = await member();
    const sender = await member();
    await liked(recipient, sender);
    await job.runOnce();
    const mails = await notificationMails(recipient.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Tester\d+ likes you on Rendezvous$/);
    expect(mails[0]!.text).toContain("https://dates.example/likes/received");
    expect(mails[0]!.text).toContain("https://dates.example/notifications");
    const url = listUnsubscribeOf(rawMailsTo(recipient.email).at(-1)!);
    expect(url.origin + url.pathname).toBe("https://dates.example/api/unsubscribe.php");

    // Another like within the hour: no second mail; a match is another kind and gets its own.
    await liked(recipient, await member());
    await liked(recipient, sender, "match");
    await job.runOnce();
    const after = await notificationMails(recipient.email);
    expect(after).toHaveLength(2);
    expect(after[1]!.file).toContain("notify_match");
    await job.runOnce();
    expect(await notificationMails(recipient.email)).toHaveLength(2);
  });

  it("sends nothing where settings, reasons, status or presence say no", async () => {
    const sender = await member();
    const switchedOff = await member();
    const put = await call(api, "PUT", "/api/notifications.php", {
      token: switchedOff.token,
      body: { settings: { messages: { email: true, push: true }, likes: { email: false, push: true }, matches: { email: true, push: true }, news: { email: true, push: true } } },
    });
    expect(put.status).toBe(200);
    const unsubscribed = await member();
    await api.db.update(users).set({ notificationsDisabled: ["listunsubscribe"] }).where(eq(users.id, unsubscribed.userId));
    const bounced = await member();
    await api.db.update(users).set({ notificationsDisabled: ["bounce"] }).where(eq(users.id, bounced.userId));
    const unconfirmed = await member({ status: "not_confirmed" });
    const online = await member();
    await api.db.insert(memberPresence).values({ profileId: online.profileId, streamUntil: new Date(Date.now() + 60_000) });
    const control = await member();
    for (const m of [switchedOff, unsubscribed, bounced, unconfirmed, online, control]) await liked(m, sender);
    await job.runOnce();
    for (const m of [switchedOff, unsubscribed, bounced, unconfirmed, online]) expect(await notificationMails(m.email), m.email).toHaveLength(0);
    // The same run did mail a member whose settings allow it: the test can fail.
    expect(await notificationMails(control.email)).toHaveLength(1);
    // The switch off for likes leaves matches on.
    await liked(switchedOff, sender, "match");
    await job.runOnce();
    expect((await notificationMails(switchedOff.email)).map((mail) => mail.file.includes("notify_match"))).toEqual([true]);
  });
});

describe("web push", () => {
  it("follows the member's push switch per kind", () => {
    expect(pushWanted("like", [])).toBe(true);
    expect(pushWanted("like", ["likes:push"])).toBe(false);
    expect(pushWanted("like", ["likes:email"])).toBe(true);
    expect(pushWanted("message", ["likes:push", "matches:push"])).toBe(true);
    expect(pushWanted("message", ["messages:push"])).toBe(false);
    expect(pushWanted("match", ["matches:push"])).toBe(false);
    expect(pushWanted("typing", [])).toBe(false);
  });
});
