import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginThrottle } from "./login";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Wrong passwords and codes counted per key in `rate_limits` (docs/security.md, Login lock-outs): a staff login's key is
 * its typed address and the client's address together, a member login's its typed address on the site. The typed
 * address counts whether or not an account has it, so a lock-out tells nobody which addresses exist. Keys are HMACs.
 */
export function failureKey(secret: string, kind: "staff" | "member", ...parts: (string | number)[]): string {
  return `${kind}_login_failed:${createHmac("sha256", secret).update(parts.join("\n").toLowerCase()).digest("base64url").slice(0, 27)}`;
}

/** Minutes left of a key's lock-out (its maxFailures reached, its window not ended), or null. */
export async function lockedMinutes(db: Db | Tx, key: string): Promise<number | null> {
  const result = await db.execute(sql`
    select extract(epoch from expire - now()) * 1000 as left_ms from rate_limits
     where key = ${key} and expire > now() and points >= ${loginThrottle.maxFailures}`);
  const row = (result as unknown as { rows: { left_ms: unknown }[] }).rows[0];
  return row ? Math.max(1, Math.ceil(Number(row.left_ms) / 60_000)) : null;
}

/**
 * One more failure on a key: counted within a window from the first; the one that reaches maxFailures starts a
 * lock-out of a whole window. Answers the minutes of the lock-out it started, or null.
 */
export async function countFailure(db: Db | Tx, key: string): Promise<number | null> {
  const windowSeconds = loginThrottle.windowMs / 1000;
  const result = await db.execute(sql`
    insert into rate_limits as r (key, points, expire) values (${key}, 1, now() + make_interval(secs => ${windowSeconds}::float8))
    on conflict (key) do update set
      points = case when r.expire <= now() then 1 else r.points + 1 end,
      expire = case
        when r.expire <= now() then excluded.expire
        when r.points + 1 = ${loginThrottle.maxFailures}::int then now() + make_interval(secs => ${windowSeconds}::float8)
        else r.expire end
    returning r.points`);
  const row = (result as unknown as { rows: { points: unknown }[] }).rows[0];
  return Number(row?.points) === loginThrottle.maxFailures ? loginThrottle.windowMs / 60_000 : null;
}

/** A correct login clears its key's failures. */
export async function clearFailures(db: Db | Tx, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}
