import path from "node:path";
import type { Request, Response } from "express";
import type {
  PhotoQueueResponse} from "#contract/staff-moderation";
import {
  MemberActionRequest,
  MembersQuery,
  PhotoReviewRequest,
  ReportActionRequest,
  ReportsQuery,
  reportsPageSize,
  type PhotoReviewResponse,
  type ModerationReason,
  type QueueSizes,
  type ReportDecision,
  type ReportsResponse,
  type StaffMemberDetail,
  type StaffMembersResponse,
} from "#contract/staff-moderation";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { payments, sites } from "../db/schema";
import { reissueActivation } from "../domain/accounts/activation";
import { eraseDeletedAccounts } from "../domain/accounts/erase";
import { mailLink, publicOrigin } from "../domain/accounts/links";
import { recipientOf } from "../domain/accounts/recipient";
import { unsubscribeKeyOf, unsubscribeUrl } from "../domain/notifications";
import { refundPayment } from "../domain/payments/payments";
import type { PaymentProviders } from "../services/payments";
import { recordAudit } from "../domain/staff/audit";
import { releaseFormKey, takeFormKey } from "../domain/staff/form-keys";
import { adjustCredits, isSuspended, liftDebitBlock, liftMember, memberOf, memberPage, refundable, searchMembers, setProfileShown, suspendMember, suspendMemberIn, type MemberRow } from "../domain/staff/member-admin";
import { staffMay, type StaffAction } from "../domain/staff/permissions";
import { photoOwnerMail, photoQueue, reviewPhotos, sitesOf, type RejectedPhoto } from "../domain/staff/photo-review";
import { addReportNote, listReports, moveReport, openReportCount, reportDetail, reportsOfMember, summaryJson, type ReportDetailRow } from "../domain/staff/reports";
import type { StaffMember } from "../domain/staff/sessions";
import type { MailKind, Mailer } from "../services/mail";
import { localDiskStorage, type FileStorage } from "../services/storage";
import { IdQuery, type StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";

type Deps = { db: Db; mailer: Mailer; providers: PaymentProviders; publicUrl: string; secret: string; dataDir: string; storage?: FileStorage };

const json = (res: Response) => res.set("Cache-Control", "private, no-store");
const photoQueuePage = 60;

/** A mail to a member about a staff decision, in the member's language, linking the page it concerns; never fails the request. */
async function mailMember(deps: Deps, req: Request, userId: number, kind: MailKind, extra: { reasonKey?: string; details?: string; token?: string }): Promise<void> {
  const recipient = await recipientOf(deps.db, userId);
  const site = await photoOwnerMail(deps.db, userId);
  if (!recipient || !site || site.status === "erased") return;
  const origin = publicOrigin(deps.publicUrl, site.domain);
  await deps.mailer.send(
    {
      kind,
      to: recipient.email,
      language: recipient.language,
      name: recipient.name,
      site: { name: site.siteName, mailName: site.mailName, domain: site.domain },
      link: mailLink(origin, recipient.language, kind, extra.token),
      userId,
      reasonKey: extra.reasonKey,
      details: extra.details,
      unsubscribeUrl: unsubscribeUrl(origin, unsubscribeKeyOf(deps.secret), site.siteId, userId),
    },
    req.log,
  );
}

/**
 * Moderation and member support (docs/staff.md): the photo queue, the reports queue and member support, each endpoint behind the
 * staff gate with its action, and each write checked for the staff member's sites and recorded in the audit log.
 */
export function staffModerationRoutes(deps: Deps) {
  const { db } = deps;
  const storage = deps.storage ?? localDiskStorage(path.resolve(deps.dataDir, "uploads"));

  /** Rejected photos: their files go (nobody may see them again), and each owner is told why. */
  async function afterRejection(req: Request, rejected: RejectedPhoto[]): Promise<void> {
    for (const photo of rejected) {
      for (const key of new Set([photo.filename, photo.thumbFilename])) await storage.delete(key).catch(() => undefined);
      await mailMember(deps, req, photo.userId, "photo_rejected", { reasonKey: `photo.${photo.reason}` });
    }
  }

  /**
   * The sender of a closed report is told its outcome: a member by mail in their language (`report_outcome`, with the
   * reply when one was written), a complaint's sender in English (the reply mail complaints get).
   */
  async function tellSender(req: Request, report: ReportDetailRow, to: "resolved" | "rejected", reply: string | undefined): Promise<void> {
    const sender = report.reporter;
    if (!sender?.email) return;
    if (sender.user_id !== null) return mailMember(deps, req, sender.user_id, "report_outcome", { reasonKey: `report.${to}`, details: reply });
    const outcome = to === "resolved" ? "We have looked at your report and acted on it." : "We have looked at your report and found nothing against our terms.";
    await mailComplaintSender(deps, req, report.siteId, sender, reply ? `${outcome}\n\n${reply}` : outcome);
  }

  return ({ route, staffOf }: StaffRouteKit) => {
    const ip = (res: Response) => res.locals.clientIp ?? null;
    /** The second check of an endpoint whose actions differ in permission: forbidden when the role may not. */
    const may = (res: Response, staff: StaffMember, action: StaffAction, siteId?: number): boolean => {
      if (staffMay(staff, action, siteId)) return true;
      sendError(res, "forbidden");
      return false;
    };

    route(endpoints.staffQueues, async (_req, res) => {
      const staff = staffOf(res);
      const siteIds = sitesOf(staff);
      const [photoCount, reportCount] = await Promise.all([
        staffMay(staff, "photos.moderate") ? photoQueue(db, siteIds, 0).then((queue) => queue.total) : 0,
        staffMay(staff, "reports.handle") ? openReportCount(db, siteIds) : 0,
      ]);
      json(res).json({ photos: photoCount, reports: reportCount } satisfies QueueSizes);
    });

    route(endpoints.staffPhotoQueue, async (_req, res) => {
      const queue = await photoQueue(db, sitesOf(staffOf(res)), photoQueuePage);
      json(res).json({
        photos: queue.photos.map((photo) => ({
          id: photo.id,
          url: `${photo.cdnPrefix}${photo.filename}`,
          thumb_url: `${photo.cdnPrefix}${photo.thumbFilename}`,
          status: photo.status,
          created_at: photo.createdAt.toISOString(),
          member: { user_id: photo.userId, profile_id: photo.profileId, name: photo.name },
          site: { id: photo.siteId, name: photo.siteName, moderation: photo.moderation },
        })),
        total: queue.total,
      } satisfies PhotoQueueResponse);
    });

    route(endpoints.reviewPhoto, async (req, res) => {
      const body = parseInput(res, PhotoReviewRequest, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const outcome = await reviewPhotos(db, staff, ip(res), body.ids, body.decision === "approve" ? { decision: "approve" } : { decision: "reject", reason: body.reason });
      await afterRejection(req, outcome.rejected);
      const { total } = await photoQueue(db, sitesOf(staff), 0);
      json(res).json({ approved: outcome.approved, rejected: outcome.rejected.map((photo) => photo.id), total } satisfies PhotoReviewResponse);
    });

    route(endpoints.staffReports, async (req, res) => {
      const query = parseInput(res, ReportsQuery, req.query);
      if (!query) return;
      const rows = await listReports(db, staffOf(res), { status: query.status, mine: query.mine === "1", before: query.before, limit: reportsPageSize + 1 });
      const page = rows.slice(0, reportsPageSize);
      json(res).json({ reports: page.map(summaryJson), next_before: rows.length > reportsPageSize ? (page[page.length - 1]?.id ?? null) : null } satisfies ReportsResponse);
    });

    const reportJson = async (res: Response, staff: StaffMember, id: number) => {
      const detail = await reportDetail(db, staff, id, staffMay(staff, "members.messages"));
      if (!detail) return sendError(res, "not_found");
      const { siteId: _site, reportedUserId: _reported, reporterUserId: _reporter, ...answer } = detail;
      const site = await photoCdn(db, detail.siteId);
      json(res).json({ ...answer, profile: answer.profile ? { ...answer.profile, photos: answer.profile.photos.map((p) => ({ id: p.id, thumb_url: `${site}${p.thumbFilename}`, status: p.status })) } : null });
    };

    route(endpoints.staffReport, async (req, res) => {
      const query = parseInput(res, IdQuery, req.query);
      if (!query) return;
      await reportJson(res, staffOf(res), query.id);
    });

    route(endpoints.handleReport, async (req, res) => {
      const body = parseInput(res, ReportActionRequest, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const report = await reportDetail(db, staff, body.id, false);
      if (!report) return sendError(res, "not_found");
      const refuse = (field: string, message: string) => sendError(res, "validation_failed", { fields: { [field]: [message] } });
      switch (body.action) {
        case "take": {
          const moved = await db.transaction((tx) => moveReport(tx, staff, ip(res), report, "in_progress", ["new", "in_progress"]));
          if (!moved) return refuse("action", "This report is closed already.");
          break;
        }
        case "reopen": {
          const moved = await db.transaction((tx) => moveReport(tx, staff, ip(res), report, "in_progress", ["resolved", "rejected"]));
          if (!moved) return refuse("action", "This report is open already.");
          break;
        }
        case "resolve":
        case "reject":
        case "decide": {
          const decision: ReportDecision =
            body.action === "decide" ? body : { id: body.id, action: "decide", outcome: body.action, measure: "none", note: body.text };
          if (decision.measure !== "none") {
            if (!may(res, staff, "members.suspend", report.siteId)) return;
            if (report.reportedUserId === null) return refuse("measure", "This report names no member.");
          }
          const member = report.reportedUserId === null ? null : await memberOf(db, staff, report.reportedUserId);
          const until = decision.measure === "suspend" && decision.until ? endOfDay(decision.until) : null;
          if (until && until <= new Date()) return refuse("until", "Choose a date after today.");
          const to = decision.outcome === "resolve" ? "resolved" : "rejected";
          // One transaction: taken (when new), the measure, the statement's record, the note, and the close; mails after it.
          const decided = await db.transaction(async (tx) => {
            if (report.status === "new" && !(await moveReport(tx, staff, ip(res), report, "in_progress", ["new"]))) return false;
            const taken = report.status === "new" ? { ...report, status: "in_progress" as const } : report;
            if (member && decision.reason && decision.measure !== "none") {
              if (decision.measure === "hide_profile") {
                await setProfileShown(tx, staff, ip(res), member, false);
                await addReportNote(tx, staff, report.id, "action", `Profile hidden (${decision.reason}).`);
              } else {
                await suspendMemberIn(tx, staff, ip(res), member, decision.reason, until);
                await addReportNote(tx, staff, report.id, "action", until ? `Member suspended until ${decision.until} (${decision.reason}).` : `Member banned (${decision.reason}).`);
              }
              if (decision.statement) {
                await addReportNote(tx, staff, report.id, "statement", `${decision.reason}: ${decision.statement}`);
                await recordAudit(tx, staff, ip(res), { action: "report.statement", targetType: "member", targetId: member.userId, siteId: report.siteId, changes: { reason: { before: null, after: decision.reason } } });
              }
            }
            if (decision.note) await addReportNote(tx, staff, report.id, "note", decision.note);
            if (!(await moveReport(tx, staff, ip(res), taken, to, ["in_progress"]))) return false;
            if (report.reporter?.email) await addReportNote(tx, staff, report.id, "reply", decision.reply ? `Sender told (${to}): ${decision.reply}` : `Sender told (${to}).`);
            return true;
          });
          if (!decided) return refuse("action", "This report is closed already.");
          if (member && decision.reason && decision.statement && decision.measure !== "none") {
            await mailMember(deps, req, member.userId, "moderation_statement", { reasonKey: `moderation.${decision.reason}`, details: decision.statement });
          }
          await tellSender(req, report, to, decision.reply);
          break;
        }
        case "note":
          await db.transaction(async (tx) => {
            await addReportNote(tx, staff, report.id, "note", body.text);
            await recordAudit(tx, staff, ip(res), { action: "report.note", targetType: "report", targetId: report.id, siteId: report.siteId });
          });
          break;
        case "hide_photo": {
          if (!may(res, staff, "photos.moderate", report.siteId)) return;
          if (!report.profile?.photos.some((photo) => photo.id === body.photo_id)) return refuse("photo_id", "This photo is not one of the reported profile's.");
          const outcome = await reviewPhotos(db, staff, ip(res), [body.photo_id], { decision: "reject", reason: body.reason }, { force: true });
          if (outcome.rejected.length === 0) return refuse("photo_id", "This photo is hidden already.");
          await addReportNote(db, staff, report.id, "action", `Photo ${body.photo_id} hidden (${body.reason}).`);
          await afterRejection(req, outcome.rejected);
          break;
        }
        case "hide_profile":
        case "suspend": {
          if (!may(res, staff, "members.suspend", report.siteId)) return;
          const member = report.reportedUserId === null ? null : await memberOf(db, staff, report.reportedUserId);
          if (!member) return refuse("action", "This report names no member.");
          if (body.action === "hide_profile") {
            await db.transaction(async (tx) => {
              await setProfileShown(tx, staff, ip(res), member, false);
              await addReportNote(tx, staff, report.id, "action", `Profile hidden (${body.reason}).`);
            });
          } else {
            const until = body.until ? endOfDay(body.until) : null;
            if (until && until <= new Date()) return refuse("until", "Choose a date after today.");
            await suspendMember(db, staff, ip(res), member, body.reason, until);
            await addReportNote(db, staff, report.id, "action", until ? `Member suspended until ${body.until} (${body.reason}).` : `Member banned (${body.reason}).`);
          }
          break;
        }
        case "reply": {
          if (!report.can_reply || !report.reporter?.email) return refuse("action", "This report has no sender to reply to.");
          const to = report.reporter;
          await db.transaction(async (tx) => {
            await addReportNote(tx, staff, report.id, "reply", body.text);
            await recordAudit(tx, staff, ip(res), { action: "report.reply", targetType: "report", targetId: report.id, siteId: report.siteId });
          });
          if (to.user_id !== null) await mailMember(deps, req, to.user_id, "report_reply", { details: body.text });
          else await mailComplaintSender(deps, req, report.siteId, to, body.text);
          break;
        }
        case "statement": {
          if (report.reportedUserId === null) return refuse("action", "This report names no member to write to.");
          const memberId = report.reportedUserId;
          await db.transaction(async (tx) => {
            await addReportNote(tx, staff, report.id, "statement", `${body.reason}: ${body.text}`);
            await recordAudit(tx, staff, ip(res), { action: "report.statement", targetType: "member", targetId: memberId, siteId: report.siteId, changes: { reason: { before: null, after: body.reason } } });
          });
          await mailMember(deps, req, memberId, "moderation_statement", { reasonKey: `moderation.${body.reason}`, details: body.text });
          break;
        }
      }
      await reportJson(res, staff, report.id);
    });

    route(endpoints.staffMembers, async (req, res) => {
      const query = parseInput(res, MembersQuery, req.query);
      if (!query) return;
      const rows = await searchMembers(db, staffOf(res), query.q);
      json(res).json({ members: rows.map((row) => memberRowJson(row)) } satisfies StaffMembersResponse);
    });

    const memberJson = async (res: Response, staff: StaffMember, userId: number, replay?: boolean) => {
      const member = await memberOf(db, staff, userId);
      const page = member ? await memberPage(db, userId) : null;
      if (!member || !page) return sendError(res, "not_found");
      const cdn = await photoCdn(db, member.siteId);
      const reportsOf = await reportsOfMember(db, userId);
      const answer: StaffMemberDetail = {
        ...memberRowJson(member),
        profile: {
          status: page.profile.status,
          gender: page.profile.gender,
          date_of_birth: page.profile.dateOfBirth,
          country: page.profile.country,
          region: page.profile.region,
          city: page.profile.city,
          about_me: page.profile.aboutMe,
          fictional: page.profile.fictional,
        },
        photos: page.photos.map((photo) => ({ id: photo.id, thumb_url: `${cdn}${photo.thumbFilename}`, status: photo.status, reviewed: photo.reviewedAt !== null })),
        suspension: isSuspended(member) ? { reason: member.suspensionReason as ModerationReason, until: member.suspendedUntil?.toISOString() ?? null } : null,
        email_confirmed: page.user.emailConfirmedAt !== null,
        debit_blocked_at: page.user.debitBlockedAt?.toISOString() ?? null,
        ledger: page.ledger.map((entry) => ({ id: entry.id, delta: entry.delta, balance_after: entry.balanceAfter, reason: entry.reason, reference: entry.reference, at: entry.createdAt.toISOString() })),
        ledger_sum: page.ledgerSum,
        payments: page.payments.map((payment) => ({
          id: payment.id,
          provider: payment.provider,
          method: payment.method,
          status: payment.status,
          amount: payment.amount,
          currency: payment.currency,
          credits: payment.credits,
          created_at: payment.createdAt.toISOString(),
          paid_at: payment.paidAt?.toISOString() ?? null,
          refundable: refundable(payment, page.refundDays),
          refund: payment.refundAmount === null ? null : { amount: payment.refundAmount, credits: payment.refundedCredits, reason: payment.refundReason },
        })),
        logins: page.logins.map((login) => ({ at: login.at.toISOString(), client_ip: login.clientIp })),
        conversations: page.conversations,
        reports_about: reportsOf.about.map(summaryJson),
        reports_by: reportsOf.by.map(summaryJson),
        ...(replay ? { replay } : {}),
      };
      json(res).json(answer);
    };

    route(endpoints.staffMember, async (req, res) => {
      const query = parseInput(res, IdQuery, req.query);
      if (!query) return;
      await memberJson(res, staffOf(res), query.id);
    });

    route(endpoints.actOnMember, async (req, res) => {
      const body = parseInput(res, MemberActionRequest, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const member = await memberOf(db, staff, body.id);
      if (!member) return sendError(res, "not_found");
      const refuse = (field: string, message: string) => sendError(res, "validation_failed", { fields: { [field]: [message] } });
      const permission: Record<MemberActionRequest["action"], StaffAction> = {
        suspend: "members.suspend",
        ban: "members.suspend",
        lift: "members.suspend",
        hide_profile: "members.suspend",
        show_profile: "members.suspend",
        resend_activation: "members.suspend",
        credits: "members.money",
        refund: "members.money",
        lift_debit_block: "members.money",
        erase: "members.erase",
      };
      if (!may(res, staff, permission[body.action], member.siteId)) return;
      if (member.status === "erased") return refuse("action", "This account is erased: nothing can be changed any more.");
      switch (body.action) {
        case "suspend": {
          const until = endOfDay(body.until);
          if (until <= new Date()) return refuse("until", "Choose a date after today.");
          await suspendMember(db, staff, ip(res), member, body.reason, until);
          break;
        }
        case "ban":
          await suspendMember(db, staff, ip(res), member, body.reason, null);
          break;
        case "lift":
          if (!member.suspensionReason) return refuse("action", "This member is not suspended.");
          await liftMember(db, staff, ip(res), member);
          break;
        case "hide_profile":
        case "show_profile": {
          const done = await db.transaction((tx) => setProfileShown(tx, staff, ip(res), member, body.action === "show_profile"));
          if (!done) return refuse("action", "Only an active member who is not suspended can be shown.");
          break;
        }
        case "resend_activation": {
          const outcome = await reissueActivation(db, deps.secret, member.userId);
          if (outcome === "confirmed") return refuse("action", "This member has confirmed their e-mail address already.");
          if (outcome === "limited") return refuse("action", "An activation mail was sent a moment ago. Try again later.");
          await recordAudit(db, staff, ip(res), { action: "member.resend_activation", targetType: "member", targetId: member.userId, siteId: member.siteId });
          await mailMember(deps, req, member.userId, "activation", { token: outcome.token });
          break;
        }
        case "credits": {
          // A replay of a booked form books nothing and says so, with the member as they are now.
          const done = await adjustCredits(db, staff, ip(res), member, body.delta, body.note, body.form_key);
          if (!done) return refuse("delta", `This member has ${member.credits} credits: you cannot deduct more.`);
          return memberJson(res, staff, member.userId, done === "replay");
        }
        case "refund": {
          const [payment] = await db.select({ id: payments.id, amount: payments.amount }).from(payments).where(and(eq(payments.id, body.payment_id), eq(payments.userId, member.userId))).limit(1);
          if (!payment) return refuse("payment_id", "This payment is not this member's.");
          if (body.amount !== undefined && body.amount > payment.amount) return refuse("amount", "A refund can give back at most what was paid.");
          // Once per form: the key is taken before the payment is claimed, and given back when nothing was refunded.
          if (!(await takeFormKey(db, staff, body.form_key))) return memberJson(res, staff, member.userId, true);
          const outcome = await refundPayment(
            deps.db,
            deps.providers,
            body.payment_id,
            new Date(),
            (tx, done) =>
              recordAudit(tx, staff, ip(res), {
                action: "member.refund",
                targetType: "payment",
                targetId: body.payment_id,
                siteId: done.siteId,
                changes: {
                  status: { before: "paid", after: "refunded" },
                  amount: { before: null, after: done.amount },
                  credits_taken_back: { before: 0, after: done.takenBack },
                  reason: { before: null, after: body.reason },
                },
              }),
            { amount: body.amount, reason: body.reason },
          );
          if (outcome.kind !== "refunded") await releaseFormKey(db, staff, body.form_key);
          if (outcome.kind === "not_paid") return refuse("payment_id", "This payment is not paid (or refunded already): nothing to refund.");
          if (outcome.kind === "window_passed") return refuse("payment_id", "The refund period of this site (refund_days) has passed for this payment.");
          if (outcome.kind === "bad_amount") return refuse("amount", "A refund can give back at most what was paid.");
          if (outcome.kind === "not_found") return sendError(res, "not_found");
          if (outcome.kind === "provider_failed") {
            req.log.warn({ err: outcome.error, paymentId: body.payment_id }, "refund failed at the provider");
            return sendError(res, "provider_unavailable");
          }
          break;
        }
        case "lift_debit_block":
          if (!(await liftDebitBlock(db, staff, ip(res), member))) return refuse("action", "This member is not blocked for direct debits.");
          break;
        case "erase":
          await eraseDeletedAccounts(db, {
            userIds: [member.userId],
            dataDir: deps.dataDir,
            onErased: (tx) => recordAudit(tx, staff, ip(res), { action: "member.erase", targetType: "member", targetId: member.userId, siteId: member.siteId, changes: { status: { before: member.status, after: "erased" } } }),
          });
          break;
      }
      await memberJson(res, staff, member.userId);
    });
  };
}

function memberRowJson(row: MemberRow) {
  return {
    user_id: row.userId,
    profile_id: row.profileId,
    name: row.name,
    email: row.email,
    site: { id: row.siteId, name: row.siteName },
    status: row.status,
    suspended: isSuspended(row),
    credits: row.credits,
    paid_user: row.paidUser,
    signup_date: row.signupDate.toISOString(),
  };
}

/** A suspension "until" a date lasts to the end of that day (UTC). */
function endOfDay(date: string): Date {
  return new Date(`${date}T23:59:59.999Z`);
}

async function photoCdn(db: Db, siteId: number): Promise<string> {
  const [site] = await db.select({ cdn: sites.cdnPrefix }).from(sites).where(eq(sites.id, siteId)).limit(1);
  return site?.cdn ?? "/uploads/";
}

/** A reply to a complaint's sender (no member: the address they gave, in English, the site's language of support). */
async function mailComplaintSender(deps: Deps, req: Request, siteId: number, to: { name: string; email: string | null }, text: string): Promise<void> {
  if (!to.email) return;
  const [site] = await deps.db.select().from(sites).where(eq(sites.id, siteId)).limit(1);
  if (!site) return;
  await deps.mailer.send(
    {
      kind: "report_reply",
      to: to.email,
      language: "en",
      name: to.name,
      site: { name: site.name, mailName: site.mailName, domain: site.domain },
      link: mailLink(publicOrigin(deps.publicUrl, site.domain), "en", "report_reply"),
      userId: 0,
      details: text,
      replyTo: site.supportEmail,
      unsubscribeUrl: null,
    },
    req.log,
  );
}
