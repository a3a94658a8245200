import { createHmac } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { hashQueue } from "../domain/hash-queue";
import { handle, tooManyRequests } from "./respond";

/**
 * Limits per client IP and per account on everything that hashes a password, sends a mail or
 * checks a secret link (docs/security.md lists them). Counted in the database (one statement per
 * attempt for both keys, countAttempt), so N api instances on one PostgreSQL share the counters; the
 * embedded PGlite uses the same table. `points` attempts per `seconds`; over it: 429 with Retry-After.
 */
export const clientLimits = {
  login: { perIp: { points: 20, seconds: 10 * 60 }, perAccount: { points: 10, seconds: 15 * 60 } },
  /** Staff login: the same as members'. */
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
  /** GIF searches (each may be a call to the provider) and image messages (each decoded and resized). */
  gif_search: { perIp: { points: 300, seconds: 60 }, perAccount: { points: 60, seconds: 60 } },
  chat_image: { perIp: { points: 60, seconds: 60 }, perAccount: { points: 20, seconds: 60 } },
  /** "Is typing" signals: the browser sends one at most every 3 s while typing. */
  typing: { perIp: { points: 200, seconds: 60 }, perAccount: { points: 40, seconds: 60 } },
  password_check: { perIp: { points: 20, seconds: 15 * 60 }, perAccount: { points: 5, seconds: 15 * 60 } },
  /** Starting a payment or a repeat order: each calls a payment provider (and may charge a stored card). */
  payment: { perIp: { points: 60, seconds: 15 * 60 }, perAccount: { points: 20, seconds: 15 * 60 } },
  /** A direct debit's SMS code (a request or a new code): each costs a text message. */
  sms: { perIp: { points: 20, seconds: 60 * 60 }, perAccount: { points: 6, seconds: 60 * 60 } },
  /** A tracked funnel entry: counted once per new set of values; a client cannot inflate a funnel much. */
  visit: { perIp: { points: 30, seconds: 60 * 60 } },
  /** Funnel pages' member teasers: every landing and lander view asks once. */
  teasers: { perIp: { points: 300, seconds: 60 } },
  /** A complaint: stored and mailed to support; a few an hour from one address. */
  complaint: { perIp: { points: 5, seconds: 60 * 60 } },
  /** A member's Report on a profile or a message: each lands in the staff's queue; ten a day per member. */
  report: { perIp: { points: 30, seconds: 24 * 60 * 60 }, perAccount: { points: 10, seconds: 24 * 60 * 60 } },
  /** Checking a typed discount code: enough for typos, too few to guess codes. */
  discount_code: { perIp: { points: 60, seconds: 15 * 60 }, perAccount: { points: 30, seconds: 15 * 60 } },
  /** A data export reads everything of a member and builds a zip: one request per member per day. */
  data_export: { perIp: { points: 20, seconds: 24 * 60 * 60 }, perAccount: { points: 1, seconds: 24 * 60 * 60 } },
  /** Saving notification settings or turning e-mail back on. */
  notification_settings: { perIp: { points: 120, seconds: 15 * 60 }, perAccount: { points: 60, seconds: 15 * 60 } },
  /** RFC 8058 one-click unsubscribe: mail providers post from few addresses for many members; a token costs one HMAC. */
  unsubscribe: { perIp: { points: 600, seconds: 10 * 60 } },
  /** A live-cam tile's click (counted per day and site, docs/product.md §1): a person clicks a few; a script cannot inflate the count. */
  cam_click: { perIp: { points: 30, seconds: 60 * 60 } },
  /** The mail provider's bounces and complaints (shared secret): generous for batches, tight for guessing the secret. */
  mail_events: { perIp: { points: 120, seconds: 60 } },
} as const;

export type LimitName = keyof typeof clientLimits;

declare module "express-serve-static-core" {
  interface Locals {
    /** Takes back this request's count on its limit's keys: a route calls it when the attempt should not count (a login that worked). */
    forgiveLimit?: () => Promise<void>;
  }
}
type Limit = { points: number; seconds: number };
/** Which account an attempt is about: an e-mail address (login, reset) or the member (re-checks). */
export type AccountOf = (req: Request, res: Response) => string | null;

export type ClientLimiter = (name: LimitName, accountOf?: AccountOf) => RequestHandler;

/** A key's count after an attempt, and when its window ends (milliseconds since the epoch, the database's clock). */
type Counted = { points: number; resetMs: number };
/** What one attempt counted: the address's key always, the account's only when the address was within its limit. */
type Attempt = { ip: Counted; account: Counted | null; nowMs: number };

/** One more attempt on a key already counted (`rate_limits as r`): its window ended, start again at 1, else add 1. */
const countedAgain = sql`on conflict (key) do update set
  points = case when r.expire <= now() then 1 else r.points + 1 end,
  expire = case when r.expire <= now() then excluded.expire else r.expire end
returning r.points, r.expire`;

/**
 * Counts one attempt in `rate_limits` (ADR 023): the address's key, and in the same statement the account's key
 * only when the address is still within `ipPoints` (an address over its limit never counts against an account,
 * so a flood from one address cannot lock a member out). A key whose window has ended starts again at 1.
 * One statement is one round trip and one commit, for both keys.
 */
export async function countAttempt(db: Db, ip: { key: string; ms: number; points: number }, account: { key: string; ms: number } | null): Promise<Attempt> {
  const result = await db.execute(sql`
    with ip as (
      insert into rate_limits as r (key, points, expire) values (${ip.key}::text, 1, now() + make_interval(secs => ${ip.ms / 1000}::float8))
      ${countedAgain}
    ),
    account as (
      insert into rate_limits as r (key, points, expire)
      select ${account?.key ?? null}::text, 1, now() + make_interval(secs => ${(account?.ms ?? 0) / 1000}::float8)
      from ip where ${account?.key ?? null}::text is not null and ip.points <= ${ip.points}::int
      ${countedAgain}
    )
    select ip.points as ip_points, extract(epoch from ip.expire) * 1000 as ip_reset_ms,
      account.points as account_points, extract(epoch from account.expire) * 1000 as account_reset_ms,
      extract(epoch from now()) * 1000 as now_ms
    from ip left join account on true`);
  const row = (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0];
  if (!row) throw new Error("the client limit's count answered no row");
  return {
    ip: { points: Number(row.ip_points), resetMs: Number(row.ip_reset_ms) },
    account: row.account_points == null ? null : { points: Number(row.account_points), resetMs: Number(row.account_reset_ms) },
    nowMs: Number(row.now_ms),
  };
}

/**
 * Keys over their limit, refused from memory until their window ends, so a flood does not become a flood of
 * upserts. Bounded: past `max` keys the ended ones go, and if none has ended the oldest.
 */
class BlockedKeys {
  private readonly until = new Map<string, number>();
  constructor(private readonly max = 10_000) {}

  /** Milliseconds until `key` may try again, or 0. */
  waitMs(key: string, now = Date.now()): number {
    const until = this.until.get(key);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    this.until.delete(key);
    return 0;
  }

  block(key: string, untilMs: number): void {
    if (this.until.size >= this.max) {
      const now = Date.now();
      for (const [k, until] of this.until) if (until <= now) this.until.delete(k);
      if (this.until.size >= this.max) this.until.delete(this.until.keys().next().value as string);
    }
    this.until.set(key, untilMs);
  }
}

/**
 * `scale` multiplies every limit: 1 in production; test servers that sign up and log in hundreds of
 * times from one address raise it (CLIENT_LIMIT_SCALE). Keys are HMACs, so no address or e-mail is stored.
 */
export function createClientLimiter(db: Db, options: { secret: string; scale: number }): ClientLimiter {
  const blocked = new BlockedKeys();
  const pointsOf = (limit: Limit) => Math.max(1, Math.round(limit.points * options.scale));
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
      const ipKey = `${name}:ip:${hashed(res.locals.clientIp)}`;
      const ipWait = blocked.waitMs(ipKey);
      if (ipWait) return refuse(ipWait);
      const account = spec.perAccount ? accountOf?.(req, res) : null;
      const accountKey = spec.perAccount && account ? `${name}:account:${hashed(`${res.locals.site.id}:${account}`)}` : null;
      // An account already refused from memory is not counted again; the address's attempt still is.
      const accountWait = accountKey ? blocked.waitMs(accountKey) : 0;
      const ipPoints = pointsOf(spec.perIp);
      const counted = await countAttempt(
        db,
        { key: ipKey, ms: spec.perIp.seconds * 1000, points: ipPoints },
        accountKey && spec.perAccount && !accountWait ? { key: accountKey, ms: spec.perAccount.seconds * 1000 } : null,
      );
      const skew = Date.now() - counted.nowMs;
      if (counted.ip.points > ipPoints) {
        blocked.block(ipKey, counted.ip.resetMs + skew);
        return refuse(counted.ip.resetMs - counted.nowMs);
      }
      if (accountWait) return refuse(accountWait);
      if (accountKey && spec.perAccount && counted.account && counted.account.points > pointsOf(spec.perAccount)) {
        blocked.block(accountKey, counted.account.resetMs + skew);
        return refuse(counted.account.resetMs - counted.nowMs);
      }
      const countedKeys = [ipKey, ...(accountKey && counted.account ? [accountKey] : [])];
      res.locals.forgiveLimit = () => forgiveAttempt(db, countedKeys);
      next();
    });
}

/** One attempt taken back from each key (never below 0). */
async function forgiveAttempt(db: Db, keys: string[]): Promise<void> {
  for (const key of keys) await db.execute(sql`update rate_limits set points = greatest(points - 1, 0) where key = ${key}`);
}

/** Deletes the counts whose window ended more than an hour ago (api/jobs/prune-client-limits.ts runs it). */
export async function pruneClientLimits(db: Db): Promise<number> {
  const removed = await db.execute(sql`delete from rate_limits where expire < now() - interval '1 hour'`);
  return Number((removed as unknown as { rowCount?: number | null }).rowCount ?? 0);
}

/** The e-mail address a login or reset request is about, as typed (lowercased); null when it is not a string. */
export const emailInBody: AccountOf = (req) => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" && email.length <= 254 ? email.trim().toLowerCase() : null;
};

/** The logged-in member. */
export const sessionMember: AccountOf = (_req, res) => (res.locals.member ? `user:${res.locals.member.userId}` : null);
