import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { DebitRequestResponse } from "#contract/direct-debit";
import { PaymentResponse } from "#contract/payments";
import { creditLedger, debitMandates, debitRequests, payments, users } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { decryptIban, ibanKeyOf } from "../../api/domain/payments/direct-debit";
import { messageBirdSms } from "../../api/services/sms";
import { call, expectApiError, startApi, testSessionSecret, type Harness } from "./harness";
import { balanceOf, newPayingMember, packagesFor, sandboxSecret, type PayingMember } from "./payments-support";

/** Direct debit over HTTP: details, the SMS code from DATA_DIR/sms, pending until the sandbox bank settles, limits and blocks. */
let api: Harness;
let passwordHash: string;
const password = "direct-debit-test-password";
const iban = "NL91ABNA0417164300";

beforeAll(async () => {
  api = await startApi({ env: { SANDBOX_WEBHOOK_SECRET: sandboxSecret, SANDBOX_NOTIFY_DELAYS_MS: "", DEBIT_LIMIT_30D: "5000" } });
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

const member = () => newPayingMember(api, passwordHash, password);

function details(packageId: number, overrides: Record<string, unknown> = {}) {
  return { package_id: packageId, account_holder: "Dennis de Vries", iban: "nl91 abna 0417 1643 00", street: "Keizersgracht", house_number: "12a", zip: "1015 CS", city: "Amsterdam", phone: "+31 6 1234 5678", ...overrides };
}

/** The last code the offline SMS sender wrote for a number. */
async function lastCode(phoneDigits = "31612345678"): Promise<string> {
  const dir = path.join(api.dataDir, "sms");
  const files = (await readdir(dir)).filter((f) => f.includes(`-${phoneDigits}-`)).sort();
  const text = await readFile(path.join(dir, files.at(-1)!), "utf8");
  return /\b(\d{6})\b/.exec(text)![1]!;
}

async function request(who: PayingMember, body: Record<string, unknown>) {
  return call(api, "POST", "/api/directdebit.php", { token: who.token, body });
}

async function startDebit(who: PayingMember, packageIndex = 1) {
  const pkg = (await packagesFor(api, who, "NL")).packages[packageIndex]!;
  const res = await request(who, details(pkg.id));
  expect(res.status, await res.clone().text()).toBe(201);
  return { pkg, request: DebitRequestResponse.parse(await res.json()) };
}

const confirm = (who: PayingMember, requestId: number, otp: string) => call(api, "POST", "/api/directdebit-confirm.php", { token: who.token, body: { request_id: requestId, otp } });

describe("direct debit with an SMS code", () => {
  it("sends a code, and the right code makes a pending sdd payment that the sandbox bank settles once", async () => {
    const a = await member();
    const { pkg, request: req } = await startDebit(a);
    expect(req).toMatchObject({ amount: pkg.amount, currency: "EUR", iban_masked: "NL** **** **** **43 00", tries_left: 5, payment_id: null });
    expect(req.phone_masked).toMatch(/^\+316\*+678$/);
    const code = await lastCode();
    const done = await confirm(a, req.request_id, code);
    expect(done.status).toBe(201);
    const { payment_id } = (await done.json()) as { payment_id: number };
    const payment = PaymentResponse.parse(await (await call(api, "GET", `/api/payment.php?id=${payment_id}`, { token: a.token })).json()).payment;
    expect(payment).toMatchObject({ status: "pending", method: "sdd", mandate: true, amount: pkg.amount });
    // The mandate keeps the IBAN encrypted (and masked); the request too.
    const [mandate] = await api.db.select().from(debitMandates).where(eq(debitMandates.userId, a.userId));
    expect(mandate?.ibanEncrypted).not.toContain(iban);
    expect(decryptIban(mandate!.ibanEncrypted, ibanKeyOf({ SESSION_SECRET: testSessionSecret }))).toBe(iban);
    const [stored] = await api.db.select().from(debitRequests).where(eq(debitRequests.id, req.request_id));
    expect(JSON.stringify(stored)).not.toContain(iban);
    // The code works once: again it answers the same payment.
    expect(((await (await confirm(a, req.request_id, code)).json()) as { payment_id: number }).payment_id).toBe(payment_id);

    for (const outcome of ["paid", "paid"]) {
      expect((await call(api, "POST", "/api/sandbox-debit.php", { token: a.token, body: { payment_id, outcome } })).status).toBe(200);
    }
    expect(await balanceOf(api, a.userId)).toEqual({ credits: pkg.credits, paidUser: true, ledgerSum: pkg.credits });
    expect(await api.db.select().from(creditLedger).where(eq(creditLedger.userId, a.userId))).toHaveLength(1);
  });

  it("says 'Code invalid' with the tries left, asks for a new code after 5 wrong ones or when expired, and a new code works", async () => {
    const a = await member();
    const { request: req } = await startDebit(a, 0);
    const code = await lastCode();
    const wrong = code === "000000" ? "111111" : "000000";
    const first = await expectApiError(await confirm(a, req.request_id, wrong), 400, "code_invalid");
    expect(first.message).toBe("Code invalid");
    expect(first.params?.tries_left).toBe(4);
    for (let i = 0; i < 3; i++) await expectApiError(await confirm(a, req.request_id, wrong), 400, "code_invalid");
    await expectApiError(await confirm(a, req.request_id, wrong), 410, "code_expired");
    // Even the right code is no longer taken.
    await expectApiError(await confirm(a, req.request_id, code), 410, "code_expired");
    const resent = await call(api, "POST", "/api/directdebit-code.php", { token: a.token, body: { request_id: req.request_id } });
    expect(resent.status).toBe(200);
    const fresh = await lastCode();
    // An expired code asks for a new one too.
    await api.db.update(debitRequests).set({ codeExpiresAt: new Date(Date.now() - 1000) }).where(eq(debitRequests.id, req.request_id));
    await expectApiError(await confirm(a, req.request_id, fresh), 410, "code_expired");
    await call(api, "POST", "/api/directdebit-code.php", { token: a.token, body: { request_id: req.request_id } });
    expect((await confirm(a, req.request_id, await lastCode())).status).toBe(201);
  });

  it("makes one payment when the same code is sent twice at once", async () => {
    const a = await member();
    const { request: req } = await startDebit(a, 0);
    const code = await lastCode();
    const both = await Promise.all([confirm(a, req.request_id, code), confirm(a, req.request_id, code)]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    const ids = await Promise.all(both.map(async (r) => ((await r.json()) as { payment_id: number }).payment_id));
    expect(ids[0]).toBe(ids[1]);
    expect(await api.db.select().from(payments).where(eq(payments.userId, a.userId))).toHaveLength(1);
  });

  it("refuses over the 30-day limit, and blocks a member whose debit bounced", async () => {
    const a = await member();
    const { request: req } = await startDebit(a, 1); // 29.99 of the 50.00 limit
    const { payment_id } = (await (await confirm(a, req.request_id, await lastCode())).json()) as { payment_id: number };
    const pkg = (await packagesFor(api, a, "NL")).packages[1]!;
    const over = await expectApiError(await request(a, details(pkg.id)), 403, "debit_limit");
    expect(over.message).toBe("Your limit for direct debit payments has been reached...");
    // Returned by the bank: the payment fails, no credits, and no more direct debits.
    expect((await call(api, "POST", "/api/sandbox-debit.php", { token: a.token, body: { payment_id, outcome: "bounced" } })).status).toBe(200);
    expect(PaymentResponse.parse(await (await call(api, "GET", `/api/payment.php?id=${payment_id}`, { token: a.token })).json()).payment.status).toBe("failed");
    expect((await balanceOf(api, a.userId)).credits).toBe(0);
    const blocked = await expectApiError(await request(a, details((await packagesFor(api, a, "NL")).packages[0]!.id)), 403, "debit_blocked");
    expect(blocked.message).toBe("Your account is blocked for direct debit payments.");
    const [user] = await api.db.select({ at: users.debitBlockedAt }).from(users).where(eq(users.id, a.userId));
    expect(user?.at).not.toBeNull();
  });

  it("holds the limit and the block for a direct debit started straight at /api/payment.php, not only through the form", async () => {
    const a = await member();
    const pkg = (await packagesFor(api, a, "NL")).packages[1]!; // 29.99 of the 50.00 limit
    const direct = () => call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: pkg.id, method: "sdd" } });
    const answers = await Promise.all([direct(), direct(), direct()]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    for (const refused of answers.filter((r) => r.status === 403)) expect(((await refused.json()) as { error: string }).error).toBe("debit_limit");
    const b = await member();
    await api.db.update(users).set({ debitBlockedAt: new Date() }).where(eq(users.id, b.userId));
    const blocked = await expectApiError(await call(api, "POST", "/api/payment.php", { token: b.token, body: { package_id: pkg.id, method: "sdd" } }), 403, "debit_blocked");
    expect(blocked.message).toBe("Your account is blocked for direct debit payments.");
    // Other methods are not direct debits: the block does not touch them.
    expect((await call(api, "POST", "/api/payment.php", { token: b.token, body: { package_id: pkg.id, method: "ideal" } })).status).toBe(201);
  });

  it("holds the 30-day limit when several confirmations come at once: the ones that fit pass, the rest get debit_limit", async () => {
    const a = await member();
    const pkg = (await packagesFor(api, a, "NL")).packages[0]!;
    const limit = 5000;
    const fit = Math.floor(limit / pkg.amount);
    expect(fit, "the test needs a package that fits the limit at least once").toBeGreaterThanOrEqual(1);
    // Each request has its own phone number, so each code is read from its own SMS; all are asked before any is confirmed.
    const started: { requestId: number; code: string }[] = [];
    for (let i = 0; i < fit + 2; i++) {
      const digits = `3161234${String(5000 + i)}`;
      const res = await request(a, details(pkg.id, { phone: `+${digits}` }));
      expect(res.status, await res.clone().text()).toBe(201);
      started.push({ requestId: DebitRequestResponse.parse(await res.json()).request_id, code: await lastCode(digits) });
    }
    const answers = await Promise.all(started.map(({ requestId, code }) => confirm(a, requestId, code)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array<number>(fit).fill(201), ...Array<number>(2).fill(403)]);
    for (const refused of answers.filter((r) => r.status === 403)) expect(((await refused.json()) as { error: string }).error).toBe("debit_limit");
    const rows = await api.db.select().from(payments).where(eq(payments.userId, a.userId));
    expect(rows).toHaveLength(fit);
    expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBeLessThanOrEqual(limit);
    // A refused request is not spent: it is not confirmed and made no mandate beyond the ones that passed.
    expect(await api.db.select().from(debitMandates).where(eq(debitMandates.userId, a.userId))).toHaveLength(fit);
  });

  it("checks the details: IBAN country, length and checksum, SEPA, phone, and another member's request", async () => {
    const a = await member();
    const pkg = (await packagesFor(api, a, "NL")).packages[0]!;
    const field = async (overrides: Record<string, unknown>, name: string) => (await expectApiError(await request(a, details(pkg.id, overrides)), 400, "validation_failed")).fields?.[name];
    expect(await field({ iban: "NL91ABNA0417164301" }, "iban")).toEqual(["iban.checksum"]);
    expect(await field({ iban: "NL91ABNA04171643" }, "iban")).toEqual(["iban.length"]);
    expect(await field({ iban: "1234" }, "iban")).toEqual(["iban.country"]);
    expect(await field({ iban: "BR1800360305000010009795493C1" }, "iban")).toEqual(["iban.sepa"]);
    expect(await field({ phone: "0612345678" }, "phone")).toEqual(["phone.invalid"]);
    expect(await field({ house_number: "a" }, "house_number")).toEqual(["houseNumber.invalid"]);
    const { request: req } = await startDebit(a, 0);
    const b = await member();
    await expectApiError(await confirm(b, req.request_id, "123456"), 404, "not_found");
    await expectApiError(await call(api, "GET", `/api/directdebit.php?request=${req.request_id}`, { token: b.token }), 404, "not_found");
    await expectApiError(await confirm(a, req.request_id, "12ab56"), 400, "validation_failed");
  });
});

describe("MessageBird SMS adapter", () => {
  let server: Server;
  let url: string;
  const seen: { auth?: string; type?: string; body: unknown; path?: string }[] = [];
  let answer = { status: 201, body: { id: "abc", recipients: { totalCount: 1 } } as unknown };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        seen.push({ auth: req.headers.authorization, type: req.headers["content-type"], body: JSON.parse(raw || "null"), path: `${req.method} ${req.url}` });
        res.writeHead(answer.status, { "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("posts the message as MessageBird's API documents it", async () => {
    await messageBirdSms({ accessKey: "test_key_123", originator: "Rendezvous", baseUrl: url }).send({ to: "+31612345678", text: "Your code is 123456" });
    expect(seen.at(-1)).toEqual({ auth: "AccessKey test_key_123", type: "application/json", path: "POST /messages", body: { originator: "Rendezvous", recipients: ["31612345678"], body: "Your code is 123456" } });
  });

  it("throws with MessageBird's error when it refuses the message", async () => {
    answer = { status: 422, body: { errors: [{ code: 9, description: "no (correct) recipients found", parameter: "recipients" }] } };
    await expect(messageBirdSms({ accessKey: "test_key_123", originator: "Rendezvous", baseUrl: url }).send({ to: "+31600000000", text: "x" })).rejects.toThrow(
      "MessageBird refused the message: HTTP 422 (9 no (correct) recipients found)",
    );
    answer = { status: 201, body: {} };
  });
});
