import { createHmac } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "../db/client";
import { rateLimits } from "../db/schema";
import { hashQueue } from "../domain/hash-queue";
import { handle, tooManyRequests } from "./respond";

/**
 * Limits per client IP and per account on everything that hashes a password, sends a mail or
 * checks a secret link (docs/security.md lists them). Counted in the database (one atomic upsert
 * per attempt), so N api instances on one PostgreSQL share the counters; the embedded PGlite uses
 * the same table. `points` attempts per `seconds`; over it: 429 with Retry-After.
 */
export const clientLimits = {
  login: { perIp: { points: 20, seconds: 10 * 60 }, perAccount: { points: 10, seconds: 15 * 60 } },
  /** Staff login (issue 25): the same as members'. */
  staff_login: { perIp: { points: 20, seconds: 10 * 60 }, perAccount: { points: 10, seconds: 15 * 60 } },
  signup: { perIp: { points: 10, seconds: 60 * 60 } },
  password_reset: { perIp: { points: 10, seconds: 60 * 60 }, perAccount: { points: 5, seconds: 60 * 60 } },
  password_reset_do: { perIp: { points: 10, seconds: 15 * 60 } },
  activation: { perIp: { points: 20, seconds: 15 * 60 } },
  activation_mail: { perIp: { points: 10, seconds: 60 * 60 }, perAccount: { points: 5, seconds: 60 * 60 } },
  email_change: { perIp: { points: 10, seconds: 60 * 60 }, perAccount: { points: 5, seconds: 60 * 60 } },
  email_change_do: { perIp: { points: 10, seconds: 15 * 60 } },
  /** Password change, account deletion and reactivation: each re-checks a password or a link. */
  /** Chat sends: well above anyone typing, low enough that a script cannot flood a member or the database. */
  message: { perIp: { points: 300, seconds: 60 }, perAccount: { points: 60, seconds: 60 } },
  /** Issue 14: GIF searches (each may be a call to the provider) and image messages (each decoded and resized). */
  gif_search: { perIp: { points: 300, seconds: 60 }, perAccount: { points: 60, seconds: 60 } },
  chat_image: { perIp: { points: 60, seconds: 60 }, perAccount: { points: 20, seconds: 60 } },
  /** "Is typing" signals: the browser sends one at most every 3 s while typing. */
  typing: { perIp: { points: 200, seconds: 60 }, perAccount: { points: 40, seconds: 60 } },
  password_check: { perIp: { points: 20, seconds: 15 * 60 }, perAccount: { points: 5, seconds: 15 * 60 } },
  /** Starting a payment or a repeat order: each calls a payment provider (and may charge a stored card). */
  payment: { perIp: { points: 60, seconds: 15 * 60 }, perAccount: { points: 20, seconds: 15 * 60 } },
  /** A direct debit's SMS code (a request or a new code): each costs a text message. */
  sms: { perIp: { points: 20, seconds: 60 * 60 }, perAccount: { points: 6, seconds: 60 * 60 } },
  /** A tracked funnel entry (issue 17 attribution): counted once per new set of values; a client cannot inflate a funnel much. */
  visit: { perIp: { points: 30, seconds: 60 * 60 } },
  /** Funnel pages' member teasers (issue 17): every landing and lander view asks once. */
  teasers: { perIp: { points: 300, seconds: 60 } },
  /** A complaint (issue 17): stored and mailed to support; a few an hour from one address. */
  complaint: { perIp: { points: 5, seconds: 60 * 60 } },
  /** A member's Report on a profile or a message (issue 25): each lands in the staff's queue; ten a day per member. */
  report: { perIp: { points: 30, seconds: 24 * 60 * 60 }, perAccount: { points: 10, seconds: 24 * 60 * 60 } },
  /** Checking a typed discount code: enough for typos, too few to guess codes. */
  discount_code: { perIp: { points: 60, seconds: 15 * 60 }, perAccount: { points: 30, seconds: 15 * 60 } },
  /** Issue 17: a data export reads everything of a member and builds a zip: one request per member per day. */
  data_export: { perIp: { points: 20, seconds: 24 * 60 * 60 }, perAccount: { points: 1, seconds: 24 * 60 * 60 } },
  /** Issue 17: saving notification settings or turning e-mail back on. */
  notification_settings: { perIp: { points: 120, seconds: 15 * 60 }, perAccount: { points: 60, seconds: 15 * 60 } },
  /** RFC 8058 one-click unsubscribe: mail providers post from few addresses for many members; a token costs one HMAC. */
  unsubscribe: { perIp: { points: 600, seconds: 10 * 60 } },
  /** A live-cam tile's click (counted per day and site, docs/product.md §1): a person clicks a few; a script cannot inflate the count. */
  cam_click: { perIp: { points: 30, seconds: 60 * 60 } },
  /** The mail provider's bounces and complaints (shared secret): generous for batches, tight for guessing the secret. */
  mail_events: { perIp: { points: 120, seconds: 60 } },
} as const;

export type LimitName = keyof typeof clientLimits;
type Limit = { points: number; seconds: number };
/** Which account an attempt is about: an e-mail address (login, reset) or the member (re-checks). */
export type AccountOf = (req: Request, res: Response) => string | null;

export type ClientLimiter = (name: LimitName, accountOf?: AccountOf) => RequestHandler;

/**
 * `scale` multiplies every limit: 1 in production; test servers that sign up and log in hundreds of
 * times from one address raise it (CLIENT_LIMIT_SCALE). Keys are HMACs, so no address or e-mail is stored.
 */
export function createClientLimiter(db: Db, options: { secret: string; scale: number }): ClientLimiter {
  const limiters = new Map<string, RateLimiterDrizzle>();
  const limiter = (key: string, limit: Limit) => {
    let found = limiters.get(key);
    if (!found) {
      const points = Math.max(1, Math.round(limit.points * options.scale));
      // Keys already over the limit are refused from memory, so a flood does not become a flood of upserts.
      found = new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix: key, points, duration: limit.seconds, inMemoryBlockOnConsumed: points });
      limiters.set(key, found);
    }
    return found;
  };
  const hashed = (value: string) => createHmac("sha256", options.secret).update(value).digest("base64url").slice(0, 27);

  return (name, accountOf) =>
    handle(async (req: Request, res: Response, next: NextFunction) => {
      const spec: { perIp: Limit; perAccount?: Limit } = clientLimits[name];
      const refuse = (waitMs: number) => {
        req.log.warn({ limit: name }, "client limit reached");
        tooManyRequests(res, Math.max(1, Math.ceil(waitMs / 1000)));
      };
      // A client with a full hash queue is refused before it costs a database write.
      if (hashQueue.isFull(res.locals.clientIp)) return refuse(hashQueue.retryAfterSeconds * 1000);
      // One after the other: an address over its limit costs no further write (a flood is refused from memory).
      const overIp = await overLimit(limiter(`${name}:ip`, spec.perIp), hashed(res.locals.clientIp));
      if (overIp) return refuse(overIp);
      const account = spec.perAccount ? accountOf?.(req, res) : null;
      const overAccount = spec.perAccount && account ? await overLimit(limiter(`${name}:account`, spec.perAccount), hashed(`${res.locals.site.id}:${account}`)) : 0;
      if (overAccount) return refuse(overAccount);
      next();
    });
}

/** Milliseconds until the key may try again, or 0 when this attempt is within the limit. */
async function overLimit(limiter: RateLimiterDrizzle, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (error) {
    // The library rejects with a RateLimiterRes when the key is over its limit, with an Error when the store failed.
    if (!(error instanceof RateLimiterRes)) throw error;
    return Math.max(1, error.msBeforeNext);
  }
}

/** The e-mail address a login or reset request is about, as typed (lowercased); null when it is not a string. */
export const emailInBody: AccountOf = (req) => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" && email.length <= 254 ? email.trim().toLowerCase() : null;
};

/** The logged-in member. */
export const sessionMember: AccountOf = (_req, res) => (res.locals.member ? `user:${res.locals.member.userId}` : null);
