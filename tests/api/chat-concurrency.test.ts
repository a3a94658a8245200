import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { SendMessageResponse } from "#contract/chat";
import { ApiError } from "#contract/errors";
import { Settings } from "#contract/settings";
import { creditLedger, messages, users } from "../../api/db/schema";
import { clientLimits } from "../../api/http/limits";
import { createSession } from "../../api/domain/sessions";
import { call, insertMember, startApi, testSessionSecret, type Harness } from "./harness";

/**
 * Chat sends are exact under concurrency, on PGlite and on PostgreSQL (DATABASE_URL): sends fired at once
 * over HTTP store exactly what the credits pay for, charge each message once, and leave every member's
 * ledger sum equal to their balance.
 */
let api: Harness;
let cost: number;

type Member = { userId: number; profileId: number; token: string };

/** A member with a session and `credits` booked as a purchase (paid) or signup credits, with the ledger row. */
async function newMember(credits = 0, paid = false): Promise<Member> {
  const m = await insertMember(api, { passwordHash: "not-used" });
  await api.db.update(users).set({ credits, paidUser: paid }).where(eq(users.id, m.userId));
  if (credits) await api.db.insert(creditLedger).values({ userId: m.userId, delta: credits, balanceAfter: credits, reason: paid ? "purchase" : "signup", reference: "chat-concurrency-test" });
  return { userId: m.userId, profileId: m.profileId, token: await createSession(api.db, m.userId, testSessionSecret) };
}

/**
 * Fires the sends at once, at most 200 in flight (more connections at once than the listen backlog
 * holds, 511, get reset by the kernel on a busy machine: a test defect, not the api's); answers each
 * one's status and error code (or "sent").
 */
async function fireAtOnce(from: Member, recipients: Member[], count: number): Promise<{ status: number; outcome: string; messageId?: number }[]> {
  const answers: { status: number; outcome: string; messageId?: number }[] = [];
  let next = 0;
  const send = async (i: number) => {
    const to = recipients[i % recipients.length]!.profileId;
    const res = await call(api, "POST", "/api/message.php", { token: from.token, body: { to, body: `message ${i}`, key: randomBytes(12).toString("base64url") } });
    const json: unknown = await res.json();
    answers[i] = res.status === 201 ? { status: res.status, outcome: "sent", messageId: SendMessageResponse.parse(json).message.id } : { status: res.status, outcome: ApiError.parse(json).error };
  };
  await Promise.all(
    Array.from({ length: Math.min(count, 200) }, async () => {
      while (next < count) await send(next++);
    }),
  );
  return answers;
}

function tally(answers: { status: number; outcome: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.status} ${a.outcome}`] = (counts[`${a.status} ${a.outcome}`] ?? 0) + 1;
  return counts;
}

/** Every user whose ledger sum differs from users.credits (one query over the whole database). */
async function ledgerMismatches() {
  return api.db
    .select({ id: users.id, credits: users.credits, ledger: sql<number>`coalesce(l.sum, 0)::int` })
    .from(users)
    .leftJoin(sql`(select ${creditLedger.userId} as user_id, sum(${creditLedger.delta}) as sum from ${creditLedger} group by ${creditLedger.userId}) l`, sql`l.user_id = ${users.id}`)
    .where(sql`${users.credits} <> coalesce(l.sum, 0)`);
}

async function sentBy(who: Member) {
  return api.db.select({ id: messages.id, credits: messages.credits }).from(messages).where(eq(messages.senderProfileId, who.profileId));
}

beforeAll(async () => {
  api = await startApi();
  cost = Settings.parse(await (await call(api, "GET", "/api/settings.php")).json()).message_credits;
  expect(cost).toBeGreaterThan(0);
});

afterAll(async () => {
  await api?.close();
});

describe("sends at once", () => {
  it("1,000 sends with credits for 100: exactly 100 stored and charged, balance 0, every ledger equal to its balance", async () => {
    // The harness scales client limits by 1000, far above 1,000 sends: no 429 can hide a wrong count.
    expect(clientLimits.message.perAccount.points * 1000).toBeGreaterThan(1000);
    const sender = await newMember(100 * cost, true);
    const recipients = [await newMember(), await newMember(), await newMember(), await newMember()];

    const answers = await fireAtOnce(sender, recipients, 1000);
    expect(tally(answers)).toEqual({ "201 sent": 100, "402 not_enough_credits": 900 });

    const stored = await sentBy(sender);
    expect(stored).toHaveLength(100);
    expect(stored.every((m) => m.credits === cost)).toBe(true);
    expect(new Set(answers.flatMap((a) => a.messageId ?? [])).size).toBe(100);
    const [row] = await api.db.select({ credits: users.credits }).from(users).where(eq(users.id, sender.userId));
    expect(row?.credits).toBe(0);

    // One ledger row per message, each with the balance its own charge left: 0, cost, ..., 99 × cost.
    const charges = await api.db.select().from(creditLedger).where(sql`${creditLedger.userId} = ${sender.userId} and ${creditLedger.reason} = 'message'`);
    expect(charges.map((c) => c.reference).sort()).toEqual(stored.map((m) => `message:${m.id}`).sort());
    expect(charges.every((c) => c.delta === -cost)).toBe(true);
    expect(charges.map((c) => c.balanceAfter).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i * cost));

    expect(await ledgerMismatches()).toEqual([]);
  }, 60_000);

  it("a free member's starts fired at once: exactly two conversations, the rest 403 premium_required and uncharged", async () => {
    const free = await newMember(10 * cost);
    const recipients = await Promise.all(Array.from({ length: 6 }, () => newMember()));
    const answers = await fireAtOnce(free, recipients, 6);
    expect(tally(answers)).toEqual({ "201 sent": 2, "403 premium_required": 4 });
    expect(await sentBy(free)).toHaveLength(2);
    const [row] = await api.db.select({ credits: users.credits }).from(users).where(eq(users.id, free.userId));
    expect(row?.credits).toBe(8 * cost);
    expect(await ledgerMismatches()).toEqual([]);
  });
});
