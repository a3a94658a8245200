import type { NextFunction, Request, Response } from "express";
import { parse as parseCookie } from "cookie";
import type { Db } from "../db/client";
import type { Site, SiteCache } from "../domain/sites";
import { sessionCookieName, sessionMember, type SessionMember } from "../domain/sessions";
import { SiteDomain, type CompanyInfo, type Interest } from "#contract/settings";
import { handle, sendError } from "./respond";

export type Member = SessionMember & { token: string };

declare module "express-serve-static-core" {
  interface Locals {
    site: Site;
    company: CompanyInfo;
    interests: Interest[];
    member: Member | null;
  }
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
    const found = token ? await sessionMember(db, token, secret, bundle.site.id) : null;
    res.locals.member = found && token ? { ...found, token } : null;
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
