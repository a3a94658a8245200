import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { ApiError } from "#contract/errors";
import { UserResponse } from "#contract/user";
import { loginFailures, users } from "../../api/db/schema";
import { demoAccounts, demoPassword, postJson, sessionCookieOf, startApi, type Harness } from "./harness";

let api: Harness;
let demoId: number;

beforeAll(async () => {
  api = await startApi();
  const [row] = await api.db.select({ id: users.id }).from(users).where(eq(users.email, demoAccounts.free.email));
  if (!row) throw new Error("demo account not seeded");
  demoId = row.id;
});
afterAll(async () => {
  await api?.close();
});
beforeEach(async () => {
  await api.db.delete(loginFailures);
});

const wrong = "wrong-password";

function attempt(email: string, password: string) {
  return postJson(api.baseUrl, "/api/user.php", { email, password }, { "X-Forwarded-Host": "localhost" });
}

async function failuresCounted(userId: number): Promise<number> {
  const [row] = await api.db.select({ n: sql<number>`count(*)::int` }).from(loginFailures).where(eq(loginFailures.userId, userId));
  return row?.n ?? 0;
}

async function addFailures(userId: number, count: number, minutesAgo: number) {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  await api.db.insert(loginFailures).values(Array.from({ length: count }, () => ({ userId, at })));
}

async function expectBlocked(res: Response, minutes: number[]) {
  expect(res.status).toBe(429);
  const body = ApiError.parse(await res.json());
  expect(body.error).toBe("login_blocked");
  expect(minutes).toContain(body.params?.minutes);
  expect(body.message).toBe(`Too many incorrect attempts, account blocked for ${body.params?.minutes} min.`);
  expect(sessionCookieOf(res)).toBeNull();
}

async function expectLoggedIn(res: Response) {
  expect(res.status).toBe(200);
  expect(UserResponse.parse(await res.json()).user?.id).toBe(demoId);
  expect(sessionCookieOf(res)?.value).toBeTruthy();
}

describe("login throttle", () => {
  it("blocks the account for 15 minutes after 5 wrong passwords, even for the right one", async () => {
    for (let i = 1; i <= 4; i++) {
      const res = await attempt(demoAccounts.free.email, wrong);
      expect(res.status, `attempt ${i}`).toBe(401);
      expect(ApiError.parse(await res.json()).error).toBe("login_failed");
    }
    // The fifth wrong password is the one that blocks: it is answered as blocked, not as wrong.
    await expectBlocked(await attempt(demoAccounts.free.email, wrong), [15]);

    const right = await attempt(demoAccounts.free.email, demoPassword);
    await expectBlocked(right, [14, 15]);
    expect(right.status).toBe(429);
    // A wrong password while blocked is blocked too: no more guesses get checked.
    await expectBlocked(await attempt(demoAccounts.free.email, wrong), [14, 15]);
    expect(await failuresCounted(demoId)).toBeGreaterThanOrEqual(5);
  });

  it("leaves other accounts alone while one is blocked", async () => {
    await addFailures(demoId, 5, 1);
    await expectBlocked(await attempt(demoAccounts.free.email, demoPassword), [14]);

    const premium = await attempt(demoAccounts.premium.email, demoPassword);
    expect(premium.status).toBe(200);
    expect(UserResponse.parse(await premium.json()).user?.paid_user).toBe(true);
    const premiumWrong = await attempt(demoAccounts.premium.email, wrong);
    expect(premiumWrong.status).toBe(401);
  });

  it("counts failures in the database: only those of the last 15 minutes", async () => {
    // Five failures 16 minutes ago have left the window.
    await addFailures(demoId, 5, 16);
    await expectLoggedIn(await attempt(demoAccounts.free.email, demoPassword));
    // A successful login clears the account's failures.
    expect(await failuresCounted(demoId)).toBe(0);

    // Five failures 10 minutes ago block for the 5 minutes left.
    await addFailures(demoId, 5, 10);
    await expectBlocked(await attempt(demoAccounts.free.email, demoPassword), [5]);

    // Four recent and three old failures make four: not blocked.
    await api.db.delete(loginFailures);
    await addFailures(demoId, 4, 10);
    await addFailures(demoId, 3, 16);
    await expectLoggedIn(await attempt(demoAccounts.free.email, demoPassword));

    // Four recent failures plus one wrong password now: blocked until the oldest is 15 minutes old.
    await addFailures(demoId, 4, 10);
    await expectBlocked(await attempt(demoAccounts.free.email, wrong), [5]);
    await expectBlocked(await attempt(demoAccounts.free.email, demoPassword), [5]);
  });

  it("still blocks when 8 wrong passwords arrive at once", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => attempt(demoAccounts.free.email, wrong)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Only the first ones, up to the limit of 5, get a plain "wrong password"; the rest are told the
    // account is blocked.
    const plainFailures = statuses.filter((s) => s === 401).length;
    expect(plainFailures).toBeGreaterThanOrEqual(4);
    expect(plainFailures).toBeLessThanOrEqual(5);
    await expectBlocked(await attempt(demoAccounts.free.email, demoPassword), [14, 15]);
  });

  // Hashing spreads parallel requests out, so they seldom reach the count at the same moment. On
  // PostgreSQL the test makes them: it holds inserts into login_failures back until all 8 attempts wait
  // in the database, then lets them go. Counted one after another, 2 earlier failures leave room for 2
  // (or, counting the one that blocks, 3) plain "wrong password" answers; counted side by side, every
  // attempt would see room left and have its password checked.
  it.runIf(Boolean(process.env.DATABASE_URL))("counts attempts that reach the database together one after another", async () => {
    await addFailures(demoId, 2, 1);
    const { pending } = await api.db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${loginFailures} in exclusive mode`);
      const pending = Promise.all(Array.from({ length: 8 }, () => attempt(demoAccounts.free.email, wrong)));
      const deadline = Date.now() + 15_000;
      for (;;) {
        const waiting = await tx.execute(
          sql`select count(distinct pid)::int as n from pg_locks where not granted`,
        );
        const n = Number((waiting as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
        if (n >= 8 || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Wrapped, so the transaction commits (and releases the lock) without waiting for the attempts.
      return { pending };
    });
    const statuses = (await pending).map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const plainFailures = statuses.filter((s) => s === 401).length;
    expect(plainFailures).toBeGreaterThanOrEqual(2);
    expect(plainFailures).toBeLessThanOrEqual(3);
    await expectBlocked(await attempt(demoAccounts.free.email, demoPassword), [14]);
  });
});
