import { Router, type Request, type Response } from "express";
import { serialize } from "cookie";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { LanguageRequest, LoginRequest, type UserResponse } from "#contract/user";
import { MemberQuery, MembersQuery, membersPageSize, trafficSourceHeader, visitorMaySearch, withUserParam } from "#contract/members";
import { memberProfile } from "../domain/member-profile";
import { markLikeSeen, relationTo } from "../domain/likes";
import { loadMe } from "../domain/me";
import { attemptLogin, recordLogin } from "../domain/login";
import { loadUser, newestMembers } from "../domain/members";
import { createSession, deleteSession, memberOfUser, sessionCookieName, sessionMaxAgeSeconds } from "../domain/sessions";
import { requireMember } from "./context";
import { emailInBody, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

export function sessionCookie(req: Request, token: string, maxAge: number): string {
  return serialize(sessionCookieName, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: req.secure,
    path: "/",
    maxAge,
  });
}

/** docs/product.md §6 for this request's visitor: web sends X-Traffic-Source: 1 when the visitor has a traffic source. */
function visitorMaySearchHere(req: Request, res: Response): boolean {
  const site = res.locals.site;
  const settings = { logged_out_search: site.loggedOutSearch, logged_out_search_trafficsource: site.loggedOutSearchTrafficsource };
  return visitorMaySearch(settings, req.get(trafficSourceHeader) === "1");
}

/** Mails a fresh reactivation link to a pending deletion that logs in; none when the login route runs without mail. */
export type PendingDeletionMailer = (req: Request, res: Response, userId: number) => Promise<void>;

export function userRoutes(db: Db, secret: string, limit: ClientLimiter, onPendingDeletion?: PendingDeletionMailer): Router {
  const router = Router();

  /** What GET /api/user.php answers: the member (null without a live session) and the badge counts. */
  function me(res: Response): Promise<UserResponse> {
    // Found with the session already on the requests that read the member first (api/http/context.ts).
    if (res.locals.me) return Promise.resolve(res.locals.me);
    const member = res.locals.member;
    return member ? loadMe(db, member, res.locals.site.id) : Promise.resolve({ user: null });
  }
  /** `with_user=1` (contract/members.ts withUserParam): the page's answer carries `me` as well. */
  const wantsMe = (req: Request) => req.query[withUserParam] === "1";

  on(router, endpoints.user,
    handle(async (_req, res) => {
      res.set("Cache-Control", "private, no-store").json(await me(res));
    }),
  );

  on(router, endpoints.login,
    limit("login", emailInBody),
    handle(async (req, res) => {
      const body = parseInput(res, LoginRequest, req.body);
      if (!body) return;
      const site = res.locals.site;
      const outcome = await attemptLogin(db, site.id, body.email, body.password, new Date(), secret);
      if (outcome.kind === "blocked") return sendError(res, "login_blocked", { params: { minutes: outcome.minutes } });
      if (outcome.kind === "failed") return sendError(res, "login_failed");
      if (outcome.kind === "suspended") return sendError(res, "account_suspended", { params: { reason: outcome.reason, until: outcome.until ? outcome.until.toISOString() : "" } });
      if (outcome.kind === "pending_deletion") {
        await onPendingDeletion?.(req, res, outcome.userId);
        return sendError(res, "account_pending_deletion");
      }
      const token = await createSession(db, outcome.userId, secret);
      await recordLogin(db, outcome.userId, res.locals.clientIp);
      res.locals.member = { ...(await memberOfUser(db, outcome.userId)), token };
      const user = await loadUser(db, outcome.userId, site.id);
      res.setHeader("Set-Cookie", sessionCookie(req, token, sessionMaxAgeSeconds));
      res.json({ user });
    }),
  );

  on(router, endpoints.updateUser,
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

  on(router, endpoints.logout,
    handle(async (req, res) => {
      const member = res.locals.member;
      if (member) await deleteSession(db, member.token, secret);
      res.setHeader("Set-Cookie", sessionCookie(req, "", 0));
      res.set("Cache-Control", "no-store").json({ ok: true });
    }),
  );

  on(router, endpoints.members,
    handle(async (req: Request, res: Response) => {
      const site = res.locals.site;
      const member = res.locals.member;
      if (!member && !visitorMaySearchHere(req, res)) return sendError(res, "authentication_required");
      const query = parseInput(res, MembersQuery, req.query);
      if (!query) return;
      const members = await newestMembers(db, site.id, member?.profileId ?? null, query.page, membersPageSize, query);
      res.set("Cache-Control", "private, no-store").json(wantsMe(req) ? { ...members, me: await me(res) } : members);
    }),
  );

  on(router, endpoints.member,
    handle(async (req: Request, res: Response) => {
      const site = res.locals.site;
      const member = res.locals.member;
      // docs/product.md §6: visitors see profiles only where logged-out search is allowed.
      if (!member && !visitorMaySearchHere(req, res)) return sendError(res, "authentication_required");
      const query = parseInput(res, MemberQuery, req.query);
      if (!query) return;
      const profile = await memberProfile(db, site, query.id, member && { userId: member.userId, paidUser: member.paidUser });
      if (!profile) return sendError(res, "not_found");
      const withMe = async <T extends object>(body: T) => (wantsMe(req) ? { ...body, me: await me(res) } : body);
      if (!member) return void res.set("Cache-Control", "private, no-store").json(await withMe({ profile, relation: null }));
      // The relation as it is before this visit: opening the page below only clears the like's new flag.
      const { blockedMe, ...relation } = await relationTo(db, member.profileId, profile.id);
      // docs/product.md §6: a blocked member cannot view the blocker's profile.
      if (blockedMe) return sendError(res, "blocked_by_member", { params: { name: profile.name } });
      await markLikeSeen(db, member.profileId, profile.id);
      res.set("Cache-Control", "private, no-store").json(await withMe({ profile, relation }));
    }),
  );

  return router;
}
