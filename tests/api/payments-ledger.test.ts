import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { and, eq, gte, sql } from "drizzle-orm";
import { creditLedger, payments, users } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { refundPayment } from "../../api/domain/payments/payments";
import { createPaymentProviders } from "../../api/services/payments";
import { startApi, type Harness } from "./harness";
import { balanceOf, newPayingMember, notifyStatus, packagesFor, paymentRow, sandboxSecret, startPayment, type PayingMember } from "./payments-support";

/** Credits and payments: refunds by the operator, and a randomised run of purchases, spends and refunds that keeps every ledger equal to its balance. */
let api: Harness;
let passwordHash: string;
const password = "ledger-test-password";
const providers = createPaymentProviders({
  routes: {},
  verotel: null,
  sandbox: { secret: sandboxSecret, deliveryDelaysMs: [], pendingSettleMs: 0, deliver: async () => undefined, onError: () => undefined },
});

beforeAll(async () => {
  api = await startApi({ env: { SANDBOX_WEBHOOK_SECRET: sandboxSecret, SANDBOX_NOTIFY_DELAYS_MS: "" } });
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

async function buy(who: PayingMember, index: number, status: "paid" | "failed" | "cancelled" | "expired" = "paid"): Promise<{ id: number; credits: number }> {
  const pkg = (await packagesFor(api, who, "NL")).packages[index]!;
  const { payment_id } = await startPayment(api, who, { package_id: pkg.id, method: "ideal" });
  await notifyStatus(api, payment_id, status);
  return { id: payment_id, credits: pkg.credits };
}

/** A spend as chat charges it: one conditional update and its ledger row, in one transaction; false when too few credits. */
async function spend(userId: number, amount: number): Promise<boolean> {
  return api.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} - ${amount}` })
      .where(and(eq(users.id, userId), gte(users.credits, amount)))
      .returning({ credits: users.credits });
    if (!row) return false;
    await tx.insert(creditLedger).values({ userId, delta: -amount, balanceAfter: row.credits, reason: "message", reference: "test" });
    return true;
  });
}

describe("operator refunds (npm run refund)", () => {
  it("takes the credits back through the ledger and ends premium when no other paid payment is left", async () => {
    const a = await newPayingMember(api, passwordHash, password);
    const { id, credits } = await buy(a, 1);
    expect(await refundPayment(api.db, providers, id)).toEqual({ kind: "refunded", takenBack: credits, shortfall: 0, manual: false });
    expect(await balanceOf(api, a.userId)).toEqual({ credits: 0, paidUser: false, ledgerSum: 0 });
    const row = await paymentRow(api, id);
    expect({ status: row.status, refundedCredits: row.refundedCredits }).toEqual({ status: "refunded", refundedCredits: credits });
    // Twice is once.
    expect(await refundPayment(api.db, providers, id)).toEqual({ kind: "not_paid" });
    expect((await balanceOf(api, a.userId)).credits).toBe(0);
  });

  it("takes back only what is left when credits were spent, records the shortfall, and keeps premium with another paid payment", async () => {
    const a = await newPayingMember(api, passwordHash, password);
    const first = await buy(a, 0);
    const second = await buy(a, 0);
    expect(await spend(a.userId, first.credits + 10)).toBe(true);
    const left = first.credits * 2 - (first.credits + 10);
    expect(await refundPayment(api.db, providers, second.id)).toEqual({ kind: "refunded", takenBack: left, shortfall: second.credits - left, manual: false });
    expect(await balanceOf(api, a.userId)).toEqual({ credits: 0, paidUser: true, ledgerSum: 0 });
    expect((await paymentRow(api, second.id)).refundShortfall).toBe(10);
  });

  it("refuses after the site's refund_days, and a payment that is not paid", async () => {
    const a = await newPayingMember(api, passwordHash, password);
    const paid = await buy(a, 0);
    const later = new Date(Date.now() + 15 * 86_400_000);
    expect(await refundPayment(api.db, providers, paid.id, later)).toEqual({ kind: "window_passed" });
    const failed = await buy(a, 0, "failed");
    expect(await refundPayment(api.db, providers, failed.id)).toEqual({ kind: "not_paid" });
    expect(await refundPayment(api.db, providers, 999999)).toEqual({ kind: "not_found" });
    expect((await balanceOf(api, a.userId)).credits).toBe(paid.credits);
  });
});

type Step =
  | { kind: "buy"; member: number; pkg: number; status: "paid" | "failed" | "cancelled"; replays: number }
  | { kind: "spend"; member: number; amount: number }
  | { kind: "refund"; member: number; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("buy" as const), member: fc.nat(2), pkg: fc.nat(3), status: fc.constantFrom("paid" as const, "paid" as const, "failed" as const, "cancelled" as const), replays: fc.nat(2) }),
  fc.record({ kind: fc.constant("spend" as const), member: fc.nat(2), amount: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant("refund" as const), member: fc.nat(2), pick: fc.nat(10) }),
);

describe("a randomised run of purchases, spends and refunds", () => {
  it("ends with every member's ledger sum equal to their balance, the balance the model expects, and none below zero", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const members = await Promise.all([0, 1, 2].map(() => newPayingMember(api, passwordHash, password)));
        const expected = [0, 0, 0];
        const paid: { id: number; credits: number }[][] = [[], [], []];
        for (const s of steps) {
          const who = members[s.member]!;
          if (s.kind === "buy") {
            const bought = await buy(who, s.pkg, s.status);
            for (let i = 0; i < s.replays; i++) await notifyStatus(api, bought.id, "paid");
            if (s.status === "paid") {
              expected[s.member]! += bought.credits;
              paid[s.member]!.push(bought);
            }
          } else if (s.kind === "spend") {
            const ok = await spend(who.userId, s.amount);
            expect(ok).toBe(expected[s.member]! >= s.amount);
            if (ok) expected[s.member]! -= s.amount;
          } else {
            const list = paid[s.member]!;
            if (!list.length) continue;
            const [payment] = list.splice(s.pick % list.length, 1);
            const outcome = await refundPayment(api.db, providers, payment!.id);
            const taken = Math.min(expected[s.member]!, payment!.credits);
            expect(outcome).toEqual({ kind: "refunded", takenBack: taken, shortfall: payment!.credits - taken, manual: false });
            expected[s.member]! -= taken;
          }
        }
        for (const [i, who] of members.entries()) {
          const balance = await balanceOf(api, who.userId);
          expect(balance.credits).toBeGreaterThanOrEqual(0);
          expect(balance.ledgerSum).toBe(balance.credits);
          expect(balance.credits).toBe(expected[i]);
          expect(balance.paidUser).toBe(paid[i]!.length > 0);
        }
        // No payment is in a state that contradicts its ledger: each paid or refunded payment has exactly one purchase row.
        for (const who of members) {
          const rows = await api.db.select({ id: payments.id, status: payments.status }).from(payments).where(eq(payments.userId, who.userId));
          for (const row of rows) {
            const purchases = await api.db.select().from(creditLedger).where(and(eq(creditLedger.reference, `payment:${row.id}`), eq(creditLedger.reason, "purchase")));
            expect(purchases.length).toBe(row.status === "paid" || row.status === "refunded" ? 1 : 0);
          }
        }
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
