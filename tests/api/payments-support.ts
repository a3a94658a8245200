import { expect } from "vitest";
import { eq, sql } from "drizzle-orm";
import { CreatePaymentResponse, PackagesResponse, PaymentResponse, type PaymentStatus } from "#contract/payments";
import { creditLedger, payments, users } from "../../api/db/schema";
import { signSandboxBody } from "../../api/services/payments/sandbox";
import { call, insertMember, login, type Harness } from "./harness";

/** The sandbox webhook secret the payment tests give the api. */
export const sandboxSecret = "sandbox-test-secret-0123456789";

export type PayingMember = { userId: number; profileId: number; email: string; token: string };

/**
 * A member to pay with. By default they signed up a month ago, so no time bonus or welcome discount
 * changes the prices (tests/api/discounts.test.ts passes a recent signup date).
 */
export async function newPayingMember(api: Harness, passwordHash: string, password: string, signupDate = new Date(Date.now() - 30 * 86_400_000)): Promise<PayingMember> {
  const inserted = await insertMember(api, { passwordHash, signupDate });
  return { ...inserted, token: await login(api.baseUrl, inserted.email, password) };
}

export async function packagesFor(api: Harness, who: PayingMember | null, country = "NL"): Promise<PackagesResponse> {
  const res = await call(api, "GET", `/api/packages.php?country=${country}`, { token: who?.token });
  expect(res.status).toBe(200);
  return PackagesResponse.parse(await res.json());
}

export async function startPayment(api: Harness, who: PayingMember, body: Record<string, unknown>) {
  const res = await call(api, "POST", "/api/payment.php", { token: who.token, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return CreatePaymentResponse.parse(await res.json());
}

export async function paymentRow(api: Harness, id: number) {
  const [row] = await api.db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw new Error(`payment ${id} not found`);
  return row;
}

export async function paymentStatus(api: Harness, who: PayingMember, id: number): Promise<PaymentStatus> {
  const res = await call(api, "GET", `/api/payment.php?id=${id}`, { token: who.token });
  expect(res.status).toBe(200);
  return PaymentResponse.parse(await res.json()).payment.status;
}

/** A notification as the sandbox provider sends it, over HTTP to the webhook. */
export async function notify(api: Harness, body: Record<string, unknown>, secret = sandboxSecret): Promise<Response> {
  const raw = JSON.stringify(body);
  return fetch(`${api.baseUrl}/api/payment-notify.php?provider=sandbox`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Sandbox-Signature": signSandboxBody(secret, raw) },
    body: raw,
  });
}

export async function notifyStatus(api: Harness, paymentId: number, status: string, overrides: Record<string, unknown> = {}): Promise<Response> {
  const row = await paymentRow(api, paymentId);
  return notify(api, { event_id: `evt_${paymentId}_${status}_${Math.random().toString(36).slice(2)}`, reference: row.reference, status, amount: row.amount, currency: row.currency, ...overrides });
}

export async function balanceOf(api: Harness, userId: number): Promise<{ credits: number; paidUser: boolean; ledgerSum: number }> {
  const [user] = await api.db.select({ credits: users.credits, paidUser: users.paidUser }).from(users).where(eq(users.id, userId));
  const [ledger] = await api.db.select({ sum: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` }).from(creditLedger).where(eq(creditLedger.userId, userId));
  return { credits: user?.credits ?? NaN, paidUser: user?.paidUser ?? false, ledgerSum: Number(ledger?.sum ?? NaN) };
}
