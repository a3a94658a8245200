import type { NextFunction, Request, Response } from "express";
import { parse as parseCookie } from "cookie";
import type { Db } from "../db/client";
import type { Site, SiteCache } from "../domain/sites";
import { sessionCookieName, sessionMember, type SessionMember } from "../domain/sessions";
import { sessionAndMe } from "../domain/me";
import { SiteDomain, type CompanyInfo, type Interest } from "#contract/settings";
import { withUserParam } from "#contract/members";
import type { UserResponse } from "#contract/user";
import { handle, sendError } from "./respond";

export type Member = SessionMember & { token: string };

declare module "express-serve-static-core" {
  interface Locals {
    site: Site;
    company: CompanyInfo;
    interests: Interest[];
    member: Member | null;
    /** What loadMe answers for the member, found with the session by a route that reads it first (readsMemberFirst). */
    me?: UserResponse;
  }
}

/**
 * Requests that answer the member as the request found them, before they change anything: GET /api/user.php and a
 * search with `with_user=1`. Every page asks one of them, so their session lookup brings the member along
 * (sessionAndMe): one statement where there were two. A route that writes before it reads the member (a profile
 * page marks its like seen, say) must not be one: its `me` would be from before the write.
 */
function readsMemberFirst(req: Request): boolean {
  if (req.method !== "GET") return false;
  return req.path === "/api/user.php" || (req.path === "/api/members.php" && req.query[withUserParam] === "1");
}

/** The site comes from ?domain= (settings.php) or the forwarded host; the member from the session cookie. */
export function requestContext(db: Db, secret: string, sites: SiteCache) {
  return handle(async (req: Request, res: Response, next: NextFunction) => {
    // A ?domain= or host that is no host name (NUL, a list) never reaches the site lookup; settings.php refuses it with 400.
    const domain = SiteDomain.safeParse(req.query.domain).data || SiteDomain.safeParse(req.hostname).data || "";
    const bundle = await sites.get(domain);
    res.locals.site = bundle.site;
    res.locals.company = bundle.company;
    res.locals.interests = bundle.interests;
    const token = parseCookie(req.headers.cookie ?? "")[sessionCookieName];
    if (token && readsMemberFirst(req)) {
      const found = await sessionAndMe(db, token, secret, bundle.site.id);
      res.locals.member = found && { ...found.member, token };
      if (found) res.locals.me = found.me;
    } else {
      const found = token ? await sessionMember(db, token, secret, bundle.site.id) : null;
      res.locals.member = found && token ? { ...found, token } : null;
    }
    next();
  });
}

/** The member of a route behind requireMember. */
export function memberOf(res: Response): Member {
  const m = res.locals.member;
  if (!m) throw new Error("requireMember must run first");
  return m;
}

export function requireMember(_req: Request, res: Response, next: NextFunction): void {
  if (!res.locals.member) return sendError(res, "authentication_required");
  next();
}
