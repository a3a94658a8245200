import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemberResponse } from "#contract/members";
import { PhotosResponse, PhotoUploadResponse } from "#contract/photos";
import { DashboardResponse } from "#contract/staff";
import { PhotoQueueResponse, PhotoReviewResponse, QueueSizes, ReportDetail, ReportsResponse, StaffMemberDetail, StaffMembersResponse } from "#contract/staff-moderation";
import { auditLog, conversationMembers, conversations, messages, photos, sites, users } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { balanceOf, newPayingMember, notifyStatus, packagesFor, sandboxSecret, startPayment } from "./payments-support";
import { call, cookieHeader, expectApiError, insertMember, login, mailsTo, postJson, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * Moderation (docs/staff.md): photo moderation (pre and post), the reports queue with member reports and
 * complaints, and member support (suspend and ban, credits, refunds, the direct-debit block, erasure), each write
 * recorded in the audit log.
 */
let api: Harness;
const password = "moderation-test-password";
let passwordHash: string;

beforeAll(async () => {
  api = await startApi({ env: { SANDBOX_WEBHOOK_SECRET: sandboxSecret, SANDBOX_NOTIFY_DELAYS_MS: "" } });
  passwordHash = await hashPassword(password);
});
afterAll(async () => api?.close());

async function member() {
  const inserted = await insertMember(api, { passwordHash });
  return { ...inserted, token: await login(api.baseUrl, inserted.email, password) };
}

async function uploadPhoto(token: string): Promise<number> {
  const body = await sharp({ create: { width: 400, height: 400, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
  const form = new FormData();
  form.append("photo", new Blob([new Uint8Array(body)], { type: "image/jpeg" }), "me.jpg");
  const res = await fetch(`${api.baseUrl}/api/photos.php`, { method: "POST", headers: { "X-Forwarded-Host": "localhost", Cookie: cookieHeader(token) }, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return PhotoUploadResponse.parse(await res.json()).photo.id;
}

/** How many photos another member sees on a profile's page. */
const photosSeen = async (viewer: string, profileId: number) => MemberResponse.parse(await (await call(api, "GET", `/api/member.php?id=${profileId}`, { token: viewer })).json()).profile.photos.length;
/** A money form's key, as the page makes one when it renders the form. */
const formKey = () => randomUUID();
const auditOf = (action: string, targetId: number | string) =>
  api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))));

async function setModeration(mode: "pre" | "post") {
  await api.db.update(sites).set({ photoModeration: mode }).where(eq(sites.id, 1));
}

describe("photo moderation", () => {
  it("pre-moderation: a new photo waits for review, seen by its owner only, until a moderator approves it", async () => {
    await setModeration("pre");
    const owner = await member();
    const viewer = await member();
    const photoId = await uploadPhoto(owner.token);
    const own = PhotosResponse.parse(await (await call(api, "GET", "/api/photos.php", { token: owner.token })).json());
    expect(own.photos.find((p) => p.id === photoId)?.status).toBe("pending");
    expect(await photosSeen(viewer.token, owner.profileId)).toBe(0);

    const moderator = await staffToken(api, await newStaff(api, "moderator"));
    const queue = PhotoQueueResponse.parse(await (await staffCall(api, moderator, "GET", "/api/staff/photos.php")).json());
    expect(queue.photos.find((p) => p.id === photoId)).toMatchObject({ status: "pending", member: { user_id: owner.userId }, site: { id: 1, moderation: "pre" } });
    // Oldest first.
    const times = queue.photos.map((p) => p.created_at);
    expect(times).toEqual([...times].sort());
    // The frame's and the dashboard's queue sizes count the same photos.
    expect(QueueSizes.parse(await (await staffCall(api, moderator, "GET", "/api/staff/queues.php")).json()).photos).toBe(queue.total);
    expect(DashboardResponse.parse(await (await staffCall(api, moderator, "GET", "/api/staff/dashboard.php")).json()).sites.find((site) => site.id === 1)?.photo_queue).toBe(queue.total);

    const review = PhotoReviewResponse.parse(await (await staffCall(api, moderator, "POST", "/api/staff/photos.php", { decision: "approve", ids: [photoId] })).json());
    expect(review.approved).toEqual([photoId]);
    expect(await photosSeen(viewer.token, owner.profileId)).toBeGreaterThan(0);
    expect(await auditOf("photo.approve", photoId)).toHaveLength(1);
    // Reviewed once: a second approval changes nothing.
    expect(PhotoReviewResponse.parse(await (await staffCall(api, moderator, "POST", "/api/staff/photos.php", { decision: "approve", ids: [photoId] })).json()).approved).toEqual([]);
    await setModeration("post");
  });

  it("post-moderation: live at once and queued; rejection hides it, frees the slot, tells the member why, and several go at once", async () => {
    await setModeration("post");
    const owner = await member();
    const viewer = await member();
    const first = await uploadPhoto(owner.token);
    const second = await uploadPhoto(owner.token);
    expect(await photosSeen(viewer.token, owner.profileId)).toBeGreaterThan(0);
    const moderator = await staffToken(api, await newStaff(api, "moderator"));
    const queue = PhotoQueueResponse.parse(await (await staffCall(api, moderator, "GET", "/api/staff/photos.php")).json());
    expect(queue.photos.filter((p) => p.id === first || p.id === second).map((p) => p.status)).toEqual(["active", "active"]);

    const res = await staffCall(api, moderator, "POST", "/api/staff/photos.php", { decision: "reject", ids: [first, second], reason: "not_the_member" });
    expect(PhotoReviewResponse.parse(await res.json()).rejected.sort()).toEqual([first, second].sort());
    expect(await photosSeen(viewer.token, owner.profileId)).toBe(0);
    const own = PhotosResponse.parse(await (await call(api, "GET", "/api/photos.php", { token: owner.token })).json());
    expect(own.photos).toEqual([]);
    expect(own.count).toBe(0);
    expect(own.rejected).toEqual(expect.arrayContaining([{ id: first, reason: "not_the_member" }]));
    const mails = await mailsTo(api, owner.email);
    expect(mails.some((mail) => /was not approved/.test(mail.subject) && /does not show you/.test(mail.text))).toBe(true);
    const [entry] = await auditOf("photo.reject", first);
    expect(entry?.changes).toEqual({ status: { before: "active", after: "rejected" }, rejection_reason: { before: null, after: "not_the_member" } });
    // Dismissing the notice removes the rejected photo for good.
    expect((await call(api, "DELETE", `/api/photo.php?id=${first}`, { token: owner.token })).status).toBe(200);
  });

  it("refuses bad review requests with 400 and leaves photos of other sites alone", async () => {
    const moderator = await staffToken(api, await newStaff(api, "moderator", [2]));
    await expectApiError(await staffCall(api, moderator, "POST", "/api/staff/photos.php", { decision: "reject", ids: [1] }), 400, "validation_failed");
    await expectApiError(await staffCall(api, moderator, "POST", "/api/staff/photos.php", { decision: "approve", ids: [] }), 400, "validation_failed");
    const owner = await member();
    const photoId = await uploadPhoto(owner.token);
    const review = PhotoReviewResponse.parse(await (await staffCall(api, moderator, "POST", "/api/staff/photos.php", { decision: "reject", ids: [photoId], reason: "other" })).json());
    expect(review.rejected).toEqual([]);
  });

  it("counts a long queue up to 1,000, which stands for 1000+ (the frame, the queue page and the dashboard read at most 1,000 rows)", async () => {
    const owner = await member();
    const moderator = await staffToken(api, await newStaff(api, "moderator"));
    const sizes = async () => ({
      frame: QueueSizes.parse(await (await staffCall(api, moderator, "GET", "/api/staff/queues.php")).json()).photos,
      page: PhotoQueueResponse.parse(await (await staffCall(api, moderator, "GET", "/api/staff/photos.php")).json()).total,
      dashboard: DashboardResponse.parse(await (await staffCall(api, moderator, "GET", "/api/staff/dashboard.php")).json()).sites.find((site) => site.id === 1)?.photo_queue,
    });
    const before = (await sizes()).frame;
    const rows = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({ profileId: owner.profileId, siteId: owner.siteId, filename: `queue/${from + i}.jpg`, thumbFilename: `queue/${from + i}-t.jpg`, status: "pending" as const, position: from + i }));
    const added = await api.db.insert(photos).values(rows(999 - before, 0)).returning({ id: photos.id });
    expect(await sizes()).toEqual({ frame: 999, page: 999, dashboard: 999 });
    added.push(...(await api.db.insert(photos).values(rows(5, 999 - before)).returning({ id: photos.id })));
    expect(await sizes()).toEqual({ frame: 1000, page: 1000, dashboard: 1000 });
    await api.db.delete(photos).where(inArray(photos.id, added.map((row) => row.id)));
    expect((await sizes()).frame).toBe(before);
  });
});

describe("the staff's live stream", () => {
  it("sends the queue sizes at once and again when they change", async () => {
    const account = await newStaff(api, "moderator");
    const token = await staffToken(api, account);
    const res = await staffCall(api, token, "GET", "/api/staff/events.php");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    const nextQueues = async (): Promise<{ photos: number; reports: number }> => {
      for (;;) {
        const match = /event: queues\ndata: (.*)\n\n/.exec(buffer);
        if (match) {
          buffer = buffer.slice(match.index + match[0].length);
          return JSON.parse(match[1]!) as { photos: number; reports: number };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffer += value;
      }
    };
    const first = await nextQueues();
    const owner = await member();
    await uploadPhoto(owner.token);
    // The stream counts every 2 s: the new photo shows within a few.
    expect(await nextQueues()).toEqual({ photos: first.photos + 1, reports: first.reports });
    await reader.cancel();
  });
});

describe("reports", () => {
  it("a member reports a profile and a message; complaints join the queue; staff take, act, mail and resolve", async () => {
    const reporter = await member();
    const reported = await member();
    const photoId = await uploadPhoto(reported.token);
    // A conversation with a message from the reported member.
    const [conversation] = await api.db
      .insert(conversations)
      .values({ siteId: 1, lowProfileId: Math.min(reporter.profileId, reported.profileId), highProfileId: Math.max(reporter.profileId, reported.profileId), startedBy: reported.profileId })
      .returning();
    await api.db.insert(conversationMembers).values([
      { conversationId: conversation!.id, profileId: reporter.profileId, otherProfileId: reported.profileId },
      { conversationId: conversation!.id, profileId: reported.profileId, otherProfileId: reporter.profileId },
    ]);
    const [message] = await api.db.insert(messages).values({ conversationId: conversation!.id, senderProfileId: reported.profileId, body: "send me money" }).returning();

    const byProfile = await call(api, "POST", "/api/report.php", { token: reporter.token, body: { profile_id: reported.profileId, reason: "fake_profile", details: "Stolen photos" } });
    expect(byProfile.status).toBe(201);
    const byMessage = await call(api, "POST", "/api/report.php", { token: reporter.token, body: { message_id: message!.id, reason: "scam" } });
    expect(byMessage.status).toBe(201);
    const messageReportId = ((await byMessage.json()) as { report_id: number }).report_id;
    // Not both, not neither, not one's own profile, not a message of someone else's conversation.
    await expectApiError(await call(api, "POST", "/api/report.php", { token: reporter.token, body: { reason: "spam" } }), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/report.php", { token: reporter.token, body: { profile_id: reporter.profileId, reason: "spam" } }), 404, "not_found");
    const stranger = await member();
    await expectApiError(await call(api, "POST", "/api/report.php", { token: stranger.token, body: { message_id: message!.id, reason: "spam" } }), 404, "not_found");
    await expectApiError(await call(api, "POST", "/api/report.php", { body: { profile_id: reported.profileId, reason: "spam" } }), 403, "authentication_required");
    const complaint = await postJson(api.baseUrl, "/api/complaints.php", { name: "Vera Visitor", email: "vera@example.com", content_url: `http://localhost/members/${reported.profileId}`, reason: "other", message: "This profile uses my photos." }, { "X-Forwarded-Host": "localhost" });
    expect(complaint.status).toBe(201);

    const support = await staffToken(api, await newStaff(api, "support"));
    const open = ReportsResponse.parse(await (await staffCall(api, support, "GET", "/api/staff/reports.php")).json());
    const mine = open.reports.filter((r) => r.reported?.user_id === reported.userId);
    expect(mine.map((r) => r.source).sort()).toEqual(["complaint", "message", "profile"]);
    expect(mine.every((r) => r.status === "new")).toBe(true);

    // Support sees no message contents; a moderator does.
    const asSupport = ReportDetail.parse(await (await staffCall(api, support, "GET", `/api/staff/report.php?id=${messageReportId}`)).json());
    expect(asSupport.message).toMatchObject({ id: message!.id, body: null });
    const moderatorAccount = await newStaff(api, "moderator");
    const moderator = await staffToken(api, moderatorAccount);
    expect(ReportDetail.parse(await (await staffCall(api, moderator, "GET", `/api/staff/report.php?id=${messageReportId}`)).json()).message?.body).toBe("send me money");

    const profileReport = mine.find((r) => r.source === "profile")!;
    const act = async (token: string, body: Record<string, unknown>) => staffCall(api, token, "POST", "/api/staff/report.php", { id: profileReport.id, ...body });
    const taken = ReportDetail.parse(await (await act(moderator, { action: "take" })).json());
    expect(taken).toMatchObject({ status: "in_progress", assignee: { id: moderatorAccount.id } });
    expect(ReportDetail.parse(await (await act(moderator, { action: "note", text: "Checked the photos." })).json()).notes.at(-1)).toMatchObject({ kind: "note", body: "Checked the photos." });
    // Support may not hide photos (a moderator's action).
    await expectApiError(await act(support, { action: "hide_photo", photo_id: photoId, reason: "not_the_member" }), 403, "forbidden");
    const hidden = ReportDetail.parse(await (await act(moderator, { action: "hide_photo", photo_id: photoId, reason: "not_the_member" })).json());
    expect(hidden.profile?.photos.find((p) => p.id === photoId)?.status).toBe("rejected");
    expect(await photosSeen(reporter.token, reported.profileId)).toBe(0);
    await act(moderator, { action: "reply", text: "We removed the photo. Thank you." });
    await act(moderator, { action: "statement", reason: "fake_profile", text: "Your photo showed someone else." });
    const resolved = ReportDetail.parse(await (await act(moderator, { action: "resolve", text: "Photo hidden." })).json());
    expect(resolved.status).toBe("resolved");
    await expectApiError(await act(moderator, { action: "resolve" }), 400, "validation_failed");
    expect((await mailsTo(api, reporter.email)).some((mail) => /About your report/.test(mail.subject) && /We removed the photo/.test(mail.text))).toBe(true);
    expect((await mailsTo(api, reported.email)).some((mail) => /A decision about your account/.test(mail.subject) && /a fake profile/.test(mail.text) && /showed someone else/.test(mail.text))).toBe(true);
    for (const action of ["report.in_progress", "report.note", "report.reply", "report.resolved"]) expect(await auditOf(action, profileReport.id), action).toHaveLength(1);
    expect(await auditOf("photo.reject", photoId)).toHaveLength(1);
    expect(await auditOf("report.statement", reported.userId)).toHaveLength(1);

    // The complaint's sender gets the reply at the address they gave.
    const complaintReport = mine.find((r) => r.source === "complaint")!;
    await staffCall(api, support, "POST", "/api/staff/report.php", { id: complaintReport.id, action: "reply", text: "We are looking into it." });
    expect((await mailsTo(api, "vera@example.com")).some((mail) => /We are looking into it/.test(mail.text))).toBe(true);
  });
});

describe("a report decided in one step", () => {
  /** A conversation of two members with `count` messages, alternating senders, the first from `a`. */
  async function chatOf(a: { profileId: number }, b: { profileId: number }, count: number) {
    const [conversation] = await api.db
      .insert(conversations)
      .values({ siteId: 1, lowProfileId: Math.min(a.profileId, b.profileId), highProfileId: Math.max(a.profileId, b.profileId), startedBy: a.profileId })
      .returning();
    await api.db.insert(conversationMembers).values([
      { conversationId: conversation!.id, profileId: a.profileId, otherProfileId: b.profileId },
      { conversationId: conversation!.id, profileId: b.profileId, otherProfileId: a.profileId },
    ]);
    const rows = [];
    for (let n = 1; n <= count; n++) {
      const [row] = await api.db.insert(messages).values({ conversationId: conversation!.id, senderProfileId: n % 2 ? a.profileId : b.profileId, body: `message ${n}` }).returning();
      rows.push(row!);
    }
    return rows;
  }

  it("shows the message in its conversation; suspends, states the reasons, resolves and tells the sender in their language at once", async () => {
    const reporter = await member();
    const reported = await member();
    await api.db.update(users).set({ language: "nl" }).where(eq(users.id, reporter.userId));
    const chat = await chatOf(reported, reporter, 30);
    // Message 15 is the reported member's (odd numbers are theirs).
    const reportedMessage = chat[14]!;
    const made = await call(api, "POST", "/api/report.php", { token: reporter.token, body: { message_id: reportedMessage.id, reason: "harassment" } });
    const reportId = ((await made.json()) as { report_id: number }).report_id;
    const moderator = await staffToken(api, await newStaff(api, "moderator"));
    const detail = ReportDetail.parse(await (await staffCall(api, moderator, "GET", `/api/staff/report.php?id=${reportId}`)).json());
    // A bounded window around it, oldest first, the reported one marked.
    expect(detail.conversation.map((m) => m.body)).toEqual(Array.from({ length: 17 }, (_, i) => `message ${i + 7}`));
    expect(detail.conversation.filter((m) => m.reported).map((m) => m.id)).toEqual([reportedMessage.id]);
    // Support reads no message contents, so no conversation either.
    const support = await staffToken(api, await newStaff(api, "support"));
    expect(ReportDetail.parse(await (await staffCall(api, support, "GET", `/api/staff/report.php?id=${reportId}`)).json()).conversation).toEqual([]);

    const decide = (body: Record<string, unknown>) => staffCall(api, moderator, "POST", "/api/staff/report.php", { id: reportId, action: "decide", ...body });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    // A measure needs its reason and statement; a rejection takes none.
    const incomplete = await expectApiError(await decide({ outcome: "resolve", measure: "suspend" }), 400, "validation_failed");
    expect(Object.keys(incomplete.fields ?? {}).sort()).toEqual(["reason", "statement", "until"]);
    await expectApiError(await decide({ outcome: "reject", measure: "ban", reason: "spam", statement: "No." }), 400, "validation_failed");
    const decided = ReportDetail.parse(
      await (await decide({ outcome: "resolve", measure: "suspend", reason: "harassment", until: tomorrow, statement: "You threatened another member.", reply: "Thank you, we acted." })).json(),
    );
    expect(decided.status).toBe("resolved");
    // The history: taken, the measure, the statement, resolved, the sender told.
    expect(decided.notes.map((n) => [n.kind, n.body])).toEqual([
      ["action", "Taken."],
      ["action", `Member suspended until ${tomorrow} (harassment).`],
      ["statement", "harassment: You threatened another member."],
      ["action", "Resolved."],
      ["reply", "Sender told (resolved): Thank you, we acted."],
    ]);
    const [suspended] = await api.db.select({ reason: users.suspensionReason }).from(users).where(eq(users.id, reported.userId));
    expect(suspended?.reason).toBe("harassment");
    const told = await mailsTo(api, reporter.email);
    expect(told.some((mail) => /De uitkomst van je melding/.test(mail.subject) && /maatregelen genomen/.test(mail.text) && /Thank you, we acted/.test(mail.text))).toBe(true);
    expect((await mailsTo(api, reported.email)).some((mail) => /A decision about your account/.test(mail.subject) && /You threatened another member/.test(mail.text))).toBe(true);
    for (const action of ["report.in_progress", "report.resolved", "member.suspend"]) expect(await auditOf(action, action.startsWith("member") ? reported.userId : reportId), action).toHaveLength(1);
    // Decided once.
    await expectApiError(await decide({ outcome: "reject", measure: "none" }), 400, "validation_failed");
  });

  it("a rejected report tells its sender too, and its history says who rejected it", async () => {
    const reporter = await member();
    const reported = await member();
    const made = await call(api, "POST", "/api/report.php", { token: reporter.token, body: { profile_id: reported.profileId, reason: "fake_profile" } });
    const reportId = ((await made.json()) as { report_id: number }).report_id;
    const support = await staffToken(api, await newStaff(api, "support"));
    const rejected = ReportDetail.parse(await (await staffCall(api, support, "POST", "/api/staff/report.php", { id: reportId, action: "reject", text: "Real photos." })).json());
    expect(rejected.status).toBe("rejected");
    expect(rejected.notes.map((n) => n.body)).toEqual(["Taken.", "Real photos.", "Rejected.", "Sender told (rejected)."]);
    expect((await mailsTo(api, reporter.email)).some((mail) => /The outcome of your report/.test(mail.subject) && /found nothing against our terms/.test(mail.text))).toBe(true);
    // The member reported hears nothing of a rejected report.
    expect(await mailsTo(api, reported.email)).toEqual([]);
  });
});

describe("member support", () => {
  it("finds members by e-mail, name, id and payment id, on the staff member's sites only", async () => {
    const target = await member();
    const support = await staffToken(api, await newStaff(api, "support"));
    const find = async (token: string, q: string) => StaffMembersResponse.parse(await (await staffCall(api, token, "GET", `/api/staff/members.php?q=${encodeURIComponent(q)}`)).json()).members.map((m) => m.user_id);
    expect(await find(support, target.email)).toEqual([target.userId]);
    expect(await find(support, String(target.userId))).toContain(target.userId);
    const [profileName] = await api.db.execute<{ name: string }>(sql`select name from profiles where id = ${target.profileId}`).then((r) => (r as unknown as { rows: { name: string }[] }).rows);
    expect(await find(support, profileName!.name)).toContain(target.userId);
    const elsewhere = await staffToken(api, await newStaff(api, "support", [2]));
    expect(await find(elsewhere, target.email)).toEqual([]);
    await expectApiError(await staffCall(api, elsewhere, "GET", `/api/staff/member.php?id=${target.userId}`), 404, "not_found");
    await expectApiError(await staffCall(api, support, "GET", "/api/staff/members.php?q="), 400, "validation_failed");
  });

  it("a ban ends the member's sessions and login answers account_suspended with the reason; lifting lets them in again", async () => {
    const target = await member();
    const moderator = await staffToken(api, await newStaff(api, "moderator"));
    const res = await staffCall(api, moderator, "POST", "/api/staff/member.php", { id: target.userId, action: "ban", reason: "scam" });
    expect(StaffMemberDetail.parse(await res.json())).toMatchObject({ suspended: true, suspension: { reason: "scam", until: null }, profile: { status: "disabled" } });
    const me = await call(api, "GET", "/api/user.php", { token: target.token });
    expect(await me.json()).toEqual({ user: null });
    const refused = await expectApiError(await postJson(api.baseUrl, "/api/user.php", { email: target.email, password }, { "X-Forwarded-Host": "localhost" }), 403, "account_suspended");
    expect(refused.params).toEqual({ reason: "scam", until: "" });
    // Only who knows the password learns of the ban.
    await expectApiError(await postJson(api.baseUrl, "/api/user.php", { email: target.email, password: "wrong-password" }, { "X-Forwarded-Host": "localhost" }), 401, "login_failed");
    expect(await auditOf("member.ban", target.userId)).toHaveLength(1);
    await staffCall(api, moderator, "POST", "/api/staff/member.php", { id: target.userId, action: "lift" });
    expect(await login(api.baseUrl, target.email, password)).toBeTruthy();
    expect(await auditOf("member.lift", target.userId)).toHaveLength(1);
  });

  it("a suspension lasts until its day is over, then login lifts it", async () => {
    const target = await member();
    const support = await staffToken(api, await newStaff(api, "support"));
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await expectApiError(await staffCall(api, support, "POST", "/api/staff/member.php", { id: target.userId, action: "suspend", reason: "spam", until: "2020-01-01" }), 400, "validation_failed");
    await staffCall(api, support, "POST", "/api/staff/member.php", { id: target.userId, action: "suspend", reason: "spam", until: tomorrow });
    const refused = await expectApiError(await postJson(api.baseUrl, "/api/user.php", { email: target.email, password }, { "X-Forwarded-Host": "localhost" }), 403, "account_suspended");
    expect(refused.params).toEqual({ reason: "spam", until: `${tomorrow}T23:59:59.999Z` });
    await api.db.update(users).set({ suspendedUntil: new Date(Date.now() - 1000) }).where(eq(users.id, target.userId));
    expect(await login(api.baseUrl, target.email, password)).toBeTruthy();
    const [row] = await api.db.select({ reason: users.suspensionReason }).from(users).where(eq(users.id, target.userId));
    expect(row?.reason).toBeNull();
  });

  it("a credit grant is booked once per form: identical posts at once and a replay later book nothing new and answer as the first did", async () => {
    const target = await member();
    const supportAccount = await newStaff(api, "support");
    const support = await staffToken(api, supportAccount);
    const before = (await balanceOf(api, target.userId)).credits;
    const grant = { id: target.userId, action: "credits", delta: 40, note: "Goodwill, sent twice", form_key: formKey() };
    const answers = await Promise.all([1, 2, 3, 4].map(() => staffCall(api, support, "POST", "/api/staff/member.php", grant)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const details = await Promise.all(answers.map(async (res) => StaffMemberDetail.parse(await res.json())));
    for (const detail of details) expect(detail.credits).toBe(before + 40);
    // One booked it; the others say they booked nothing.
    expect(details.map((detail) => detail.replay ?? false).sort()).toEqual([false, true, true, true]);
    const replay = StaffMemberDetail.parse(await (await staffCall(api, support, "POST", "/api/staff/member.php", grant)).json());
    expect(replay).toMatchObject({ credits: before + 40, replay: true });
    // The ledger names who booked it.
    expect(replay.ledger[0]?.reference).toBe(`Test support ${supportAccount.email.split("-")[2]}: Goodwill, sent twice`);
    expect(await balanceOf(api, target.userId)).toEqual({ credits: before + 40, paidUser: false, ledgerSum: before + 40 });
    expect(await auditOf("member.credits_grant", target.userId)).toHaveLength(1);
    // Another form (a new key) books again; a post without a key is refused.
    await staffCall(api, support, "POST", "/api/staff/member.php", { ...grant, form_key: formKey() });
    expect((await balanceOf(api, target.userId)).credits).toBe(before + 80);
    await expectApiError(await staffCall(api, support, "POST", "/api/staff/member.php", { ...grant, form_key: undefined }), 400, "validation_failed");
    await expectApiError(await staffCall(api, support, "POST", "/api/staff/member.php", { ...grant, form_key: "short" }), 400, "validation_failed");
  });

  it("grants and deducts credits and refunds a payment, keeping the balance equal to the ledger's sum", async () => {
    const buyer = await newPayingMember(api, passwordHash, password);
    const pkg = (await packagesFor(api, buyer)).packages[0]!;
    const { payment_id } = await startPayment(api, buyer, { package_id: pkg.id, method: "ideal" });
    await notifyStatus(api, payment_id, "paid");
    const supportAccount = await newStaff(api, "support");
    const support = await staffToken(api, supportAccount);
    const act = (body: Record<string, unknown>) => staffCall(api, support, "POST", "/api/staff/member.php", { id: buyer.userId, ...body });

    const granted = StaffMemberDetail.parse(await (await act({ action: "credits", delta: 50, note: "Goodwill after a failed message", form_key: formKey() })).json());
    expect(granted.credits).toBe(pkg.credits + 50);
    expect(granted.ledger[0]).toMatchObject({ delta: 50, reason: "staff" });
    expect(granted.ledger_sum).toBe(granted.credits);
    await expectApiError(await act({ action: "credits", delta: -(pkg.credits + 51), note: "Too much", form_key: formKey() }), 400, "validation_failed");
    await expectApiError(await act({ action: "credits", delta: 0, note: "Nothing", form_key: formKey() }), 400, "validation_failed");
    await act({ action: "credits", delta: -20, note: "Correction", form_key: formKey() });
    expect(granted.payments.find((p) => p.id === payment_id)?.refundable).toBe(true);

    // A refund needs its reason and its form's key.
    await expectApiError(await act({ action: "refund", payment_id, form_key: formKey() }), 400, "validation_failed");
    await expectApiError(await act({ action: "refund", payment_id, reason: "No key" }), 400, "validation_failed");
    const refundForm = { action: "refund", payment_id, reason: "Charged by mistake", form_key: formKey() };
    const refunded = StaffMemberDetail.parse(await (await act(refundForm)).json());
    expect(refunded.payments.find((p) => p.id === payment_id)).toMatchObject({ status: "refunded", refund: { amount: pkg.amount, credits: pkg.credits, reason: "Charged by mistake" } });
    expect(refunded.credits).toBe(30);
    expect(refunded.paid_user).toBe(false);
    expect(refunded.replay).toBeUndefined();
    expect(await balanceOf(api, buyer.userId)).toEqual({ credits: 30, paidUser: false, ledgerSum: 30 });
    // The same form again books nothing and says so; another form finds it refunded already.
    expect(StaffMemberDetail.parse(await (await act(refundForm)).json()).replay).toBe(true);
    await expectApiError(await act({ ...refundForm, form_key: formKey() }), 400, "validation_failed");
    const [grant] = await auditOf("member.credits_grant", buyer.userId);
    expect(grant).toMatchObject({ staffUserId: supportAccount.id, role: "support", changes: { credits: { before: pkg.credits, after: pkg.credits + 50 } } });
    expect(await auditOf("member.credits_deduct", buyer.userId)).toHaveLength(1);
    expect(await auditOf("member.refund", payment_id)).toHaveLength(1);
    // Moderators do not touch money.
    const moderator = await staffToken(api, await newStaff(api, "moderator"));
    await expectApiError(await staffCall(api, moderator, "POST", "/api/staff/member.php", { id: buyer.userId, action: "credits", delta: 5, note: "Not mine to give", form_key: formKey() }), 403, "forbidden");
  });

  it("refunds a part of a payment: the provider is asked for that amount and the same share of the credits is taken back", async () => {
    const buyer = await newPayingMember(api, passwordHash, password);
    const pkg = (await packagesFor(api, buyer)).packages[0]!;
    const { payment_id } = await startPayment(api, buyer, { package_id: pkg.id, method: "ideal" });
    await notifyStatus(api, payment_id, "paid");
    const support = await staffToken(api, await newStaff(api, "support"));
    const act = (body: Record<string, unknown>) => staffCall(api, support, "POST", "/api/staff/member.php", { id: buyer.userId, action: "refund", payment_id, reason: "Half the package", ...body });
    const refused = await expectApiError(await act({ amount: pkg.amount + 1, form_key: formKey() }), 400, "validation_failed");
    expect(refused.fields?.amount).toBeDefined();
    const half = Math.floor(pkg.amount / 2);
    const detail = StaffMemberDetail.parse(await (await act({ amount: half, form_key: formKey() })).json());
    const credits = Math.floor((pkg.credits * half) / pkg.amount);
    expect(detail.payments.find((p) => p.id === payment_id)).toMatchObject({ status: "refunded", refund: { amount: half, credits, reason: "Half the package" } });
    expect(await balanceOf(api, buyer.userId)).toEqual({ credits: pkg.credits - credits, paidUser: false, ledgerSum: pkg.credits - credits });
    expect(detail.ledger[0]).toMatchObject({ delta: -credits, reason: "refund" });
    const [audit] = await auditOf("member.refund", payment_id);
    expect(audit?.changes).toMatchObject({ amount: { after: half }, credits_taken_back: { after: credits }, reason: { after: "Half the package" } });
  });

  it("lifts a direct-debit block, resends the activation mail, hides and shows a profile, and erases an account (admins only)", async () => {
    const target = await member();
    await api.db.update(users).set({ debitBlockedAt: new Date() }).where(eq(users.id, target.userId));
    const admin = await staffToken(api, await newStaff(api, "admin", []));
    const act = (token: string, body: Record<string, unknown>) => staffCall(api, token, "POST", "/api/staff/member.php", { id: target.userId, ...body });
    expect(StaffMemberDetail.parse(await (await act(admin, { action: "lift_debit_block" })).json()).debit_blocked_at).toBeNull();
    await expectApiError(await act(admin, { action: "lift_debit_block" }), 400, "validation_failed");
    await expectApiError(await act(admin, { action: "resend_activation" }), 400, "validation_failed");
    const unconfirmed = await insertMember(api, { passwordHash, status: "not_confirmed" });
    expect((await staffCall(api, admin, "POST", "/api/staff/member.php", { id: unconfirmed.userId, action: "resend_activation" })).status).toBe(200);
    expect((await mailsTo(api, unconfirmed.email, "/activate/done")).length).toBe(1);
    expect(StaffMemberDetail.parse(await (await act(admin, { action: "hide_profile" })).json()).profile.status).toBe("disabled");
    expect(StaffMemberDetail.parse(await (await act(admin, { action: "show_profile" })).json()).profile.status).toBe("active");
    const support = await staffToken(api, await newStaff(api, "support"));
    await expectApiError(await act(support, { action: "erase", confirm: "ERASE" }), 403, "forbidden");
    await expectApiError(await act(admin, { action: "erase" }), 400, "validation_failed");
    const erased = StaffMemberDetail.parse(await (await act(admin, { action: "erase", confirm: "ERASE" })).json());
    expect(erased).toMatchObject({ status: "erased", email: `erased-${target.userId}@erased.invalid` });
    for (const action of ["member.lift_debit_block", "member.resend_activation", "member.hide_profile", "member.show_profile", "member.erase"]) {
      const id = action === "member.resend_activation" ? unconfirmed.userId : target.userId;
      expect(await auditOf(action, id), action).toHaveLength(1);
    }
  });
});
