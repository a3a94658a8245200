import type { NextFunction, Request, Response } from "express";
import { photoMaxBytes } from "#contract/photos";
import { splitLocale } from "../app/utils/paths";
import { isCanonicalPath } from "#contract/host";
import { answerAfterSmallBody, dataAnswerHeaders, edgeAnswer, isApiPath } from "./edge";

/**
 * What every request that changes something must pass before a route sees it (docs/security.md):
 * it comes from this site, its body is small (a photo only where photos are uploaded: the photo pages and the chat pages), and a page
 * form is sent as a form. Every page, action and proxied api call inherits this from here.
 */
export const bodyLimits = {
  formBytes: 64 * 1024,
  // Twice the photo limit: the upload page itself stops reading at the limit and says so in the member's words.
  uploadBytes: 2 * photoMaxBytes + 64 * 1024,
};

/** Pages whose form takes a photo (multipart, streamed to the api); every other body is a small form. */
const uploadPaths = [/^\/profile\/photos\/?$/, /^\/signup\/2\/?$/, /^\/chats\/[0-9]+\/?$/, /^\/members\/[0-9]+\/chat\/?$/, /^\/staff\/profiles\/[0-9]+\/?$/];

export function isUploadPath(pathname: string): boolean {
  // With JavaScript the form posts to the route's single-fetch URL, /profile/photos.data.
  const { path } = splitLocale(pathname.replace(/\.data$/, ""));
  return uploadPaths.some((pattern) => pattern.test(path));
}

/**
 * api calls that other servers make, each carrying its own key instead of a browser's origin: the RFC 8058
 * one-click unsubscribe (a mailbox provider POSTs to the List-Unsubscribe URL; the link's HMAC token is the
 * key) and the mail provider's bounces and complaints (a shared secret), and the payment providers'
 * notifications (PAY. posts its signed exchanges; the api checks each provider's signature first). The body caps still hold.
 */
const serverToServerApiPaths = new Set(["/api/unsubscribe.php", "/api/mail-events.php", "/api/payment-notify.php"]);

/**
 * api GETs that change something (logout is a GET in the api's contract): they pass the same-origin check
 * of a post, so a foreign page's link or image cannot call them. Matched as the api's router matches
 * (case-insensitive, trailing slash optional), so /API/Logout.php/ is the same call.
 */
// auto-like.php makes a site-run profile like the member (once a day).
const stateChangingApiGets = new Set(["/api/logout.php", "/api/auto-like.php"]);

export type Refusal = { status: 400 | 403 | 411 | 413 | 415; reason: string };

const formTypes = ["application/x-www-form-urlencoded", "multipart/form-data"];
const safeMethods = new Set(["GET", "HEAD"]);

/**
 * A state-changing request counts as same-origin when its Origin is this site's own origin (scheme, host
 * and port: https://host is another origin than http://host), or, when a browser sent no Origin, when
 * Sec-Fetch-Site says same-origin. Neither (curl, a foreign page): refused. The scheme is req.protocol,
 * which believes X-Forwarded-Proto only from a proxy TRUST_PROXY names.
 */
export function isSameOrigin(req: Request): boolean {
  const origin = req.get("origin");
  if (origin !== undefined) return origin === ownOrigin(req);
  return req.get("sec-fetch-site") === "same-origin";
}

/** This site's origin as a browser serialises it in Origin (lowercase host, no default port), or null when Host is no host. */
function ownOrigin(req: Request): string | null {
  const host = req.get("x-forwarded-host") && req.app.get("trust proxy fn")(req.socket.remoteAddress ?? "", 0) ? req.get("x-forwarded-host") : req.get("host");
  if (!host || (req.protocol !== "http" && req.protocol !== "https")) return null;
  try {
    const url = new URL(`${req.protocol}://${host}`);
    // A Host that also names a user, a path or a query (evil@host, host/x) is no host of ours.
    return url.username === "" && url.password === "" && url.href === `${url.origin}/` ? url.origin : null;
  } catch {
    return null;
  }
}

/** A path with broken percent-encoding (/%FF/...) would make the router throw. */
function decodablePath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Why a request is refused before any route reads it, or null when it may go on. */
export function refusalOf(req: Request, kind: "page" | "api"): Refusal | null {
  // Remix's pre-single-fetch data requests: no page of this app makes them, and Remix answers some with a 500.
  if (!decodablePath(req.path)) return { status: 400, reason: "undecodable_path" };
  const legacy: Refusal | null = kind === "page" && new URLSearchParams(req.originalUrl.split("?")[1] ?? "").has("_data") ? { status: 400, reason: "legacy_data_request" } : null;
  const apiPath = kind === "api" ? (req.originalUrl.split("?")[0] ?? "") : "";
  if (safeMethods.has(req.method) && !stateChangingApiGets.has(apiPath.toLowerCase().replace(/\/+$/, ""))) return legacy;
  const serverToServer = serverToServerApiPaths.has(apiPath);
  if (!serverToServer && !isSameOrigin(req)) return { status: 403, reason: "cross_site" };
  if (legacy) return legacy;
  // An api body is capped per api route, declared or streamed, by server/api-body-cap.ts.
  if (kind === "api") return null;
  const type = (req.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  // Only a multipart form carries a photo: the other forms of an upload page (a chat's text) stay small.
  const upload = isUploadPath(req.path) && type === "multipart/form-data";
  const limit = upload ? bodyLimits.uploadBytes : bodyLimits.formBytes;
  const length = req.get("content-length");
  if (length !== undefined && !(Number(length) <= limit)) return { status: 413, reason: "too_large" };
  // A page form always has a length (an api body of unknown length is counted by server/api-body-cap.ts).
  if (length === undefined && req.get("transfer-encoding") !== undefined && kind === "page") return { status: 411, reason: "length_required" };
  if (kind === "page" && length !== undefined && Number(length) > 0) {
    if (!formTypes.includes(type)) return { status: 415, reason: "not_a_form" };
  }
  return null;
}

/**
 * Before anything else reads the path (static files, the guard, the proxy, the pages): a path not in its canonical
 * form (contract/host.ts isCanonicalPath: `//`, `/./`, `%2F`...) is refused, so no check can compare one path while
 * the proxy or a router serves another. Such a path may name any route, the state-changing api GETs included, so a
 * request that is not from this site is refused as cross-site (403, as the canonical path would be); from this
 * site, 400.
 */
export function canonicalPathGuard(req: Request, res: Response, next: NextFunction): void {
  if (isCanonicalPath(req.originalUrl)) return next();
  const sameOrigin = isSameOrigin(req);
  req.log?.warn({ refusal: sameOrigin ? "non_canonical_path" : "cross_site", status: sameOrigin ? 400 : 403 }, "request refused");
  if (sameOrigin) return edgeAnswer(req, res, 400, { close: true });
  answerAfterSmallBody(req, () => {
    res.set({ ...dataAnswerHeaders, Connection: "close" });
    if (isApiPath(req.originalUrl)) res.status(403).json(crossSiteBody);
    else res.status(403).type("text/plain").send(crossSiteBody.message);
  });
}

const crossSiteBody = { error: "cross_site_request", message: "This request did not come from this site." };

declare module "express-serve-static-core" {
  interface Locals {
    refusal?: Refusal;
  }
}

/**
 * A refused page request is answered by the error page in the visitor's language: it is turned into
 * a GET of the refused route (app/routes/refused.tsx), which renders the status. A body of at most
 * 256 KB is read and dropped first (edge.ts answerAfterSmallBody); a larger one is never read. The
 * connection closes after the answer.
 */
export function pageRequestGuard(req: Request, res: Response, next: NextFunction): void {
  const refusal = refusalOf(req, "page");
  if (!refusal) return next();
  req.log?.warn({ refusal: refusal.reason, status: refusal.status }, "request refused");
  res.locals.refusal = refusal;
  res.set("Connection", "close");
  const { locale } = splitLocale(req.path);
  req.method = "GET";
  req.url = req.originalUrl = `${locale ? `/${locale}` : ""}/refused`;
  answerAfterSmallBody(req, () => next());
}

/** The same refusals for browser calls that web passes to the api, answered in the api's error shape. */
export function apiRequestGuard(req: Request, res: Response, next: NextFunction): void {
  const refusal = refusalOf(req, "api");
  if (!refusal) return next();
  req.log?.warn({ refusal: refusal.reason, status: refusal.status }, "request refused");
  res.set("Connection", "close");
  const body =
    refusal.status === 403
      ? crossSiteBody
      : refusal.status === 413
        ? { error: "request_too_large", message: "This request is too large." }
        : { error: "validation_failed", message: "Please check the highlighted fields." };
  answerAfterSmallBody(req, () => res.status(refusal.status).json(body));
}
