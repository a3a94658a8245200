import { Router, type Request, type Response } from "express";
import { serialize } from "cookie";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { LanguageRequest, LoginRequest } from "#contract/user";
import { MemberQuery, MembersQuery, membersPageSize, trafficSourceHeader, visitorMaySearch } from "#contract/members";
import { memberProfile } from "../domain/member-profile";
import { markLikeSeen, newLikesCount, relationTo } from "../domain/likes";
import { hasBlocked } from "../domain/visibility";
import { attemptLogin } from "../domain/login";
import { loadUser, newestMembers } from "../domain/members";
import { createSession, deleteSession, memberOfUser, sessionCookieName, sessionMaxAgeSeconds } from "../domain/sessions";
import { requireMember } from "./context";
import { emailInBody, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";

export function sessionCookie(req: Request, token: string, maxAge: number): string {
  return serialize(sessionCookieName, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: req.secure,
    path: "/",
    maxAge,
  });
}

/** Spec 6 for this request's visitor: web sends X-Traffic-Source: 1 when the visitor has a traffic source. */
function visitorMaySearchHere(req: Request, res: Response): boolean {
  const site = res.locals.site;
  const settings = { logged_out_search: site.loggedOutSearch, logged_out_search_trafficsource: site.loggedOutSearchTrafficsource };
  return visitorMaySearch(settings, req.get(trafficSourceHeader) === "1");
}

/** Mails a fresh reactivation link to a pending deletion that logs in; none when the login route runs without mail. */
export type PendingDeletionMailer = (req: Request, res: Response, userId: number) => Promise<void>;

export function userRoutes(db: Db, secret: string, limit: ClientLimiter, onPendingDeletion?: PendingDeletionMailer): Router {
  const router = Router();

  router.get(
    "/api/user.php",
    handle(async (_req, res) => {
      const member = res.locals.member;
      const user = member ? await loadUser(db, member.userId, res.locals.site.id) : null;
      // Spec 3 chat state totals for the badges; unread messages stay 0 until chats exist.
      const counts = member && user ? { unread_messages: 0, new_likes: await newLikesCount(db, res.locals.site.id, member.profileId) } : undefined;
      res.set("Cache-Control", "private, no-store").json({ user, counts });
    }),
  );

  router.post(
    "/api/user.php",
    limit("login", emailInBody),
    handle(async (req, res) => {
      const body = parseInput(res, LoginRequest, req.body);
      if (!body) return;
      const site = res.locals.site;
      const outcome = await attemptLogin(db, site.id, body.email, body.password);
      if (outcome.kind === "blocked") return sendError(res, "login_blocked", { params: { minutes: outcome.minutes } });
      if (outcome.kind === "failed") return sendError(res, "login_failed");
      if (outcome.kind === "pending_deletion") {
        await onPendingDeletion?.(req, res, outcome.userId);
        return sendError(res, "account_pending_deletion");
      }
      const token = await createSession(db, outcome.userId, secret);
      res.locals.member = { ...(await memberOfUser(db, outcome.userId)), token };
      const user = await loadUser(db, outcome.userId, site.id);
      res.setHeader("Set-Cookie", sessionCookie(req, token, sessionMaxAgeSeconds));
      res.json({ user });
    }),
  );

  router.put(
    "/api/user.php",
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, LanguageRequest, req.body);
      if (!body) return;
      const member = res.locals.member;
      if (!member) return sendError(res, "authentication_required");
      await db.update(users).set({ language: body.language }).where(eq(users.id, member.userId));
      res.json({ user: await loadUser(db, member.userId, res.locals.site.id) });
    }),
  );

  router.get(
    "/api/logout.php",
    handle(async (req, res) => {
      const member = res.locals.member;
      if (member) await deleteSession(db, member.token, secret);
      res.setHeader("Set-Cookie", sessionCookie(req, "", 0));
      res.set("Cache-Control", "no-store").json({ ok: true });
    }),
  );

  router.get(
    "/api/members.php",
    handle(async (req: Request, res: Response) => {
      const site = res.locals.site;
      const member = res.locals.member;
      if (!member && !visitorMaySearchHere(req, res)) return sendError(res, "authentication_required");
      const query = parseInput(res, MembersQuery, req.query);
      if (!query) return;
      res.set("Cache-Control", "private, no-store").json(await newestMembers(db, site.id, member?.profileId ?? null, query.page, membersPageSize, query));
    }),
  );

  router.get(
    "/api/member.php",
    handle(async (req: Request, res: Response) => {
      const site = res.locals.site;
      const member = res.locals.member;
      // Spec 6: visitors see profiles only where logged-out search is allowed.
      if (!member && !visitorMaySearchHere(req, res)) return sendError(res, "authentication_required");
      const query = parseInput(res, MemberQuery, req.query);
      if (!query) return;
      const profile = await memberProfile(db, site, query.id, member?.userId ?? null);
      if (!profile) return sendError(res, "not_found");
      if (!member) return void res.set("Cache-Control", "private, no-store").json({ profile, relation: null });
      // Spec 6: a blocked member cannot view the blocker's profile.
      if (await hasBlocked(db, profile.id, member.profileId)) return sendError(res, "blocked_by_member", { params: { name: profile.name } });
      await markLikeSeen(db, member.profileId, profile.id);
      res.set("Cache-Control", "private, no-store").json({ profile, relation: await relationTo(db, member.profileId, profile.id) });
    }),
  );

  return router;
}
