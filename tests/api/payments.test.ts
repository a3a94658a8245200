import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { PackagesResponse, PaymentResponse, TransactionResponse, TransactionsResponse } from "#contract/payments";
import { UserResponse } from "#contract/user";
import { creditLedger, paymentEvents, profiles, sites } from "../../api/db/schema";
import { clearSiteCache } from "../../api/domain/sites";
import { hashPassword } from "../../api/domain/passwords";
import { call, demoAccounts, expectApiError, login, startApi, type Harness } from "./harness";
import { balanceOf, newPayingMember, notify, notifyStatus, packagesFor, paymentRow, paymentStatus, sandboxSecret, startPayment, type PayingMember } from "./payments-support";

/** Credits and payments over HTTP: packages, starting a payment, every state transition by the provider's notification, and what changes nothing. */
let api: Harness;
let passwordHash: string;
const password = "payments-test-password";
const newMember = () => newPayingMember(api, passwordHash, password);

beforeAll(async () => {
  // No automatic sandbox deliveries here: each test sends the notifications itself.
  api = await startApi({ env: { SANDBOX_WEBHOOK_SECRET: sandboxSecret, SANDBOX_NOTIFY_DELAYS_MS: "" } });
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

async function nlPackage(who: PayingMember, index = 1) {
  const { packages } = await packagesFor(api, who, "NL");
  const pkg = packages[index];
  if (!pkg) throw new Error("no NL package");
  return pkg;
}

describe("GET /api/packages.php", () => {
  it("lists the packages of a payment country in its currency, with price per credit and marks, for visitors too", async () => {
    const nl = await packagesFor(api, null, "NL");
    expect(nl.country).toBe("NL");
    expect(nl.packages.map((p) => p.currency)).toEqual(["EUR", "EUR", "EUR", "EUR"]);
    expect(nl.packages.map((p) => p.mark)).toEqual([null, "most_chosen", null, "best_value"]);
    for (const p of nl.packages) {
      expect(Number.isInteger(p.amount)).toBe(true);
      expect(p.price_per_credit).toBeCloseTo(p.amount / p.credits, 2);
    }
    for (const [country, currency] of [["GB", "GBP"], ["US", "USD"], ["PL", "PLN"], ["DK", "DKK"], ["SE", "SEK"], ["NO", "NOK"], ["CH", "CHF"]] as const) {
      expect((await packagesFor(api, null, country)).packages[0]?.currency).toBe(currency);
    }
    expect(nl.last_order).toBeNull();
  });

  it("takes the member's profile country when neither the query nor the address (a local one) says where they pay from", async () => {
    const sited = await api.db.select({ id: sites.id, countries: sites.countries }).from(sites).where(eq(sites.domain, "localhost"));
    const site = sited[0]!;
    // The site's first country is the last resort: put one there that is no demo member's, as a site may.
    await api.db.update(sites).set({ countries: ["US", ...site.countries.filter((c) => c !== "US")] }).where(eq(sites.id, site.id));
    clearSiteCache();
    try {
      const token = await login(api.baseUrl, demoAccounts.premium.email);
      const get = async (path: string, who: string | undefined) => {
        const res = await call(api, "GET", path, { token: who });
        expect(res.status).toBe(200);
        return PackagesResponse.parse(await res.json());
      };
      // premium@example.com lives in Amsterdam (NL): euro prices, from 127.0.0.1.
      const mine = await get("/api/packages.php", token);
      expect(mine.country).toBe("NL");
      expect(mine.packages.map((p) => p.currency)).toEqual(["EUR", "EUR", "EUR", "EUR"]);
      // A member elsewhere gets their own; the asked country still wins; a visitor gets the site's first.
      const other = await newMember();
      await api.db.update(profiles).set({ country: "GB" }).where(eq(profiles.id, other.profileId));
      expect((await get("/api/packages.php", other.token)).country).toBe("GB");
      expect((await get("/api/packages.php?country=DE", token)).country).toBe("DE");
      expect((await get("/api/packages.php", undefined)).country).toBe("US");
    } finally {
      await api.db.update(sites).set({ countries: site.countries }).where(eq(sites.id, site.id));
      clearSiteCache();
    }
  });

  it("offers the methods of the payment country", async () => {
    const ids = async (country: string) => (await packagesFor(api, null, country)).methods.map((m) => m.id);
    expect(await ids("NL")).toEqual(expect.arrayContaining(["ideal", "cards", "paypal", "paysafecard", "sdd", "sct", "applepay"]));
    expect(await ids("NL")).not.toContain("bancontact");
    expect(await ids("BE")).toContain("bancontact");
    expect(await ids("AT")).toEqual(expect.arrayContaining(["eps", "sofort", "giropay"]));
    expect(await ids("PL")).toEqual(expect.arrayContaining(["blik", "prezelewy24"]));
    expect(await ids("PL")).not.toContain("sdd");
    expect(await ids("GB")).not.toContain("ideal");
    const applepay = (await packagesFor(api, null, "DE")).methods.find((m) => m.id === "applepay");
    expect(applepay?.needs_browser_support).toBe(true);
  });

  it("falls back to the site's first country for a country it does not serve, and refuses a country that is no code", async () => {
    const res = await call(api, "GET", "/api/packages.php?country=JP");
    expect(PackagesResponse.parse(await res.json()).country).toBe("NL");
    await expectApiError(await call(api, "GET", "/api/packages.php?country=NLD"), 400, "validation_failed");
    await expectApiError(await call(api, "GET", "/api/packages.php?country=N%00"), 400, "validation_failed");
  });

  it("answers the member along with with_user=1", async () => {
    const a = await newMember();
    const res = await call(api, "GET", "/api/packages.php?country=NL&with_user=1", { token: a.token });
    const body = PackagesResponse.parse(await res.json());
    expect(body.me?.user?.id).toBe(a.userId);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("POST /api/payment.php", () => {
  it("needs a member", async () => {
    await expectApiError(await call(api, "POST", "/api/payment.php", { body: { package_id: 1, method: "ideal" } }), 403, "authentication_required");
  });

  it("takes the amount from the package: amounts and credits in the request are refused, never used", async () => {
    const a = await newMember();
    const pkg = await nlPackage(a);
    const tampered = await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: pkg.id, method: "ideal", amount: 1, credits: 100000 } });
    // Extra fields are dropped by the schema: the payment is the package's.
    expect(tampered.status).toBe(201);
    const { payment_id } = (await tampered.json()) as { payment_id: number };
    const row = await paymentRow(api, payment_id);
    expect({ amount: row.amount, credits: row.credits, currency: row.currency }).toEqual({ amount: pkg.amount, credits: pkg.credits, currency: pkg.currency });
  });

  it("refuses an unknown package, another site's package, a method the country is not offered, and bad input", async () => {
    const a = await newMember();
    await expectApiError(await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: 999999, method: "ideal" } }), 404, "not_found");
    const other = (await call(api, "GET", "/api/packages.php?country=NL", { host: "gay.localhost" }).then((r) => r.json())) as { packages: { id: number }[] };
    await expectApiError(await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: other.packages[0]!.id, method: "ideal" } }), 404, "not_found");
    const pkg = await nlPackage(a);
    await expectApiError(await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: pkg.id, method: "blik" } }), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: pkg.id, method: "bitcoin" } }), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: "1", method: "ideal" } }), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: 2147483648, method: "ideal" } }), 400, "validation_failed");
  });

  it("sends the payer to the sandbox checkout, and the payment is pending", async () => {
    const a = await newMember();
    const created = await startPayment(api, a, { package_id: (await nlPackage(a)).id, method: "ideal" });
    expect(created.redirect_url).toMatch(/^\/sandbox-checkout\/[A-Za-z0-9_-]{32}$/);
    expect(await paymentStatus(api, a, created.payment_id)).toBe("pending");
  });
});

describe("transaction costs (docs/product.md §3 Payment)", () => {
  it("are the site's per method: shown with the methods, added to the price paid after a discount, and stored with the payment", async () => {
    await api.db.update(sites).set({ transactionCosts: { ideal: { fixed: 29, percent: 1.5 } } }).where(eq(sites.id, 1));
    clearSiteCache();
    try {
      const a = await newMember();
      const listed = await packagesFor(api, a, "NL");
      expect(listed.methods.find((m) => m.id === "ideal")?.transaction_costs).toEqual({ fixed: 29, percent: 1.5 });
      expect(listed.methods.find((m) => m.id === "cards")?.transaction_costs).toBeNull();
      const pkg = await nlPackage(a);
      const { payment_id } = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
      const row = await paymentRow(api, payment_id);
      const costs = 29 + Math.round((pkg.amount * 1.5) / 100);
      expect([row.transactionCosts, row.amount]).toEqual([costs, pkg.amount + costs]);
      const shown = TransactionResponse.parse(await (await call(api, "GET", `/api/transaction.php?id=${payment_id}`, { token: a.token })).json());
      expect(shown.payment.transaction_costs).toBe(costs);
      const card = await startPayment(api, a, { package_id: pkg.id, method: "cards" });
      expect((await paymentRow(api, card.payment_id)).transactionCosts).toBe(0);
    } finally {
      await api.db.update(sites).set({ transactionCosts: {} }).where(eq(sites.id, 1));
      clearSiteCache();
    }
  });
});

describe("state transitions by the provider's notification", () => {
  it("pending -> paid grants the credits once, sets paid_user and writes the ledger row with the balance", async () => {
    const a = await newMember();
    const pkg = await nlPackage(a);
    const before = await balanceOf(api, a.userId);
    expect(before.paidUser).toBe(false);
    const { payment_id } = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    expect((await notifyStatus(api, payment_id, "paid")).status).toBe(200);
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    const after = await balanceOf(api, a.userId);
    expect(after).toEqual({ credits: before.credits + pkg.credits, paidUser: true, ledgerSum: before.credits + pkg.credits });
    const rows = await api.db.select().from(creditLedger).where(and(eq(creditLedger.userId, a.userId), eq(creditLedger.reference, `payment:${payment_id}`)));
    expect(rows).toEqual([expect.objectContaining({ delta: pkg.credits, balanceAfter: before.credits + pkg.credits, reason: "purchase" })]);
    // Premium at once: user.php says paid_user on the next request.
    const me = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: a.token })).json());
    expect(me.user?.paid_user).toBe(true);
  });

  it.each(["failed", "cancelled", "expired"] as const)("pending -> %s grants nothing, and a later paid changes nothing", async (status) => {
    const a = await newMember();
    const { payment_id } = await startPayment(api, a, { package_id: (await nlPackage(a)).id, method: "ideal" });
    const before = await balanceOf(api, a.userId);
    expect((await notifyStatus(api, payment_id, status)).status).toBe(200);
    expect(await paymentStatus(api, a, payment_id)).toBe(status);
    expect((await notifyStatus(api, payment_id, "paid")).status).toBe(200);
    expect(await paymentStatus(api, a, payment_id)).toBe(status);
    expect(await balanceOf(api, a.userId)).toEqual(before);
  });

  it("pending -> pending stays pending; a pending after paid changes nothing", async () => {
    const a = await newMember();
    const { payment_id } = await startPayment(api, a, { package_id: (await nlPackage(a)).id, method: "ideal" });
    await notifyStatus(api, payment_id, "pending");
    expect(await paymentStatus(api, a, payment_id)).toBe("pending");
    await notifyStatus(api, payment_id, "paid");
    await notifyStatus(api, payment_id, "pending");
    await notifyStatus(api, payment_id, "failed");
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
  });

  it("one notification replayed 10 times credits once", async () => {
    const a = await newMember();
    const pkg = await nlPackage(a);
    const before = await balanceOf(api, a.userId);
    const { payment_id } = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    const row = await paymentRow(api, payment_id);
    const body = { event_id: "evt_replayed", reference: row.reference, status: "paid", amount: row.amount, currency: row.currency };
    const answers = await Promise.all(Array.from({ length: 10 }, () => notify(api, body)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await balanceOf(api, a.userId)).credits).toBe(before.credits + pkg.credits);
    const events = await api.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment_id));
    expect(events.filter((e) => e.outcome === "applied")).toHaveLength(1);
    expect(events.filter((e) => e.outcome === "ignored")).toHaveLength(9);
  });

  it("a notification racing the payer's return credits once, and the return itself grants nothing", async () => {
    const a = await newMember();
    const pkg = await nlPackage(a);
    const before = await balanceOf(api, a.userId);
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    const token = redirect_url.split("/").pop()!;
    // The payer's choice at the checkout, the return to the result page, and the provider's notifications, at once.
    const results = await Promise.all([
      call(api, "POST", "/api/sandbox-checkout.php", { body: { token, outcome: "paid" } }),
      call(api, "GET", `/api/payment.php?id=${payment_id}`, { token: a.token }),
      notifyStatus(api, payment_id, "paid"),
      notifyStatus(api, payment_id, "paid"),
      call(api, "GET", `/api/payment.php?id=${payment_id}`, { token: a.token }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: before.credits + pkg.credits, paidUser: true, ledgerSum: before.credits + pkg.credits });
  });

  it("the payer's choice at the checkout alone (no notification yet) leaves the payment pending", async () => {
    const a = await newMember();
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: (await nlPackage(a)).id, method: "ideal" });
    const res = await call(api, "POST", "/api/sandbox-checkout.php", { body: { token: redirect_url.split("/").pop(), outcome: "paid" } });
    expect(res.status).toBe(200);
    expect(await paymentStatus(api, a, payment_id)).toBe("pending");
  });

  it("a bad signature, another secret, a tampered body or no signature change nothing and get 4xx", async () => {
    const a = await newMember();
    const { payment_id } = await startPayment(api, a, { package_id: (await nlPackage(a)).id, method: "ideal" });
    const row = await paymentRow(api, payment_id);
    const before = await balanceOf(api, a.userId);
    const body = { event_id: "evt_forged", reference: row.reference, status: "paid", amount: row.amount, currency: row.currency };
    expect((await notify(api, body, "another-secret-0123456789")).status).toBe(400);
    const raw = JSON.stringify(body);
    const unsigned = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=sandbox`, { method: "POST", headers: { "Content-Type": "application/json" }, body: raw });
    expect(unsigned.status).toBe(400);
    const { signSandboxBody } = await import("../../api/services/payments/sandbox");
    const tampered = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=sandbox`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Sandbox-Signature": signSandboxBody(sandboxSecret, raw) },
      body: raw.replace(`"amount":${row.amount}`, `"amount":${row.amount + 1}`),
    });
    expect(tampered.status).toBe(400);
    for (const hostile of ["", "{", "\u0000", "[]", "x".repeat(20000)]) {
      const res = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=sandbox`, { method: "POST", headers: { "X-Sandbox-Signature": "t=1,v1=" + "0".repeat(64) }, body: hostile });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect((await fetch(`${api.baseUrl}/api/payment-notify.php?provider=nope`, { method: "POST", body: raw })).status).toBe(404);
    expect(await paymentStatus(api, a, payment_id)).toBe("pending");
    expect(await balanceOf(api, a.userId)).toEqual(before);
  });

  it("a signed notification with another amount or currency than the payment's changes nothing", async () => {
    const a = await newMember();
    const { payment_id } = await startPayment(api, a, { package_id: (await nlPackage(a)).id, method: "ideal" });
    const row = await paymentRow(api, payment_id);
    const before = await balanceOf(api, a.userId);
    await notifyStatus(api, payment_id, "paid", { amount: 1 });
    await notifyStatus(api, payment_id, "paid", { currency: "USD" });
    expect(await paymentStatus(api, a, payment_id)).toBe("pending");
    expect(await balanceOf(api, a.userId)).toEqual(before);
    const events = await api.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, row.id));
    expect(events.map((e) => e.outcome)).toEqual(["mismatch", "mismatch"]);
  });
});

describe("a member's payments", () => {
  it("shows only the member's own payment; another member gets 404", async () => {
    const a = await newMember();
    const b = await newMember();
    const { payment_id } = await startPayment(api, a, { package_id: (await nlPackage(a)).id, method: "ideal" });
    await expectApiError(await call(api, "GET", `/api/payment.php?id=${payment_id}`, { token: b.token }), 404, "not_found");
    await expectApiError(await call(api, "GET", `/api/transaction.php?id=${payment_id}`, { token: b.token }), 404, "not_found");
    await expectApiError(await call(api, "GET", `/api/payment.php?id=abc`, { token: a.token }), 400, "validation_failed");
  });

  it("lists transactions newest first, and a receipt has the company's details", async () => {
    const a = await newMember();
    const pkg = await nlPackage(a);
    const first = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    await notifyStatus(api, first.payment_id, "paid");
    const second = await startPayment(api, a, { package_id: pkg.id, method: "paypal" });
    await notifyStatus(api, second.payment_id, "cancelled");
    const list = TransactionsResponse.parse(await (await call(api, "GET", "/api/transactions.php", { token: a.token })).json());
    expect(list.transactions.map((t) => [t.payment_id, t.status, t.method])).toEqual([
      [second.payment_id, "cancelled", "paypal"],
      [first.payment_id, "paid", "ideal"],
    ]);
    const receipt = TransactionResponse.parse(await (await call(api, "GET", `/api/transaction.php?id=${first.payment_id}`, { token: a.token })).json());
    expect(receipt.payment).toEqual(expect.objectContaining({ credits: pkg.credits, amount: pkg.amount, currency: "EUR", transaction_costs: 0, status: "paid" }));
    expect(receipt.company.name).toBe("Rendezvous Media B.V.");
    expect(receipt.company.vat_numbers.length).toBeGreaterThan(0);
  });
});

describe("POST /api/repeat-order.php", () => {
  it("is 404 without an earlier paid order", async () => {
    const a = await newMember();
    await expectApiError(await call(api, "POST", "/api/repeat-order.php", { token: a.token, body: {} }), 404, "not_found");
  });

  it("buys the last package again with the same method (through the checkout for ideal)", async () => {
    const a = await newMember();
    const pkg = await nlPackage(a, 2);
    const first = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    await notifyStatus(api, first.payment_id, "paid");
    const res = await call(api, "POST", "/api/repeat-order.php", { token: a.token, body: {} });
    expect(res.status).toBe(201);
    const again = (await res.json()) as { payment_id: number; redirect_url: string };
    expect(again.redirect_url).toMatch(/^\/sandbox-checkout\//);
    const row = await paymentRow(api, again.payment_id);
    expect({ packageId: row.packageId, method: row.method, amount: row.amount }).toEqual({ packageId: pkg.id, method: "ideal", amount: pkg.amount });
  });

  it("charges a stored card at once; a declined stored card fails the payment and grants nothing", async () => {
    for (const [card, expected] of [["ok", "paid"], ["declines_later", "failed"]] as const) {
      const a = await newMember();
      const pkg = await nlPackage(a, 0);
      const first = await startPayment(api, a, { package_id: pkg.id, method: "cards" });
      const token = first.redirect_url.split("/").pop()!;
      expect((await call(api, "POST", "/api/sandbox-checkout.php", { body: { token, outcome: "paid", card } })).status).toBe(200);
      await notifyStatus(api, first.payment_id, "paid", { card_token: card === "ok" ? "sandbox_card_ok" : "sandbox_card_declines_later" });
      const packages = await packagesFor(api, a, "NL");
      expect(packages.last_order).toEqual(expect.objectContaining({ package_id: pkg.id, method: "cards", stored_card: true }));
      const before = await balanceOf(api, a.userId);
      const res = await call(api, "POST", "/api/repeat-order.php", { token: a.token, body: {} });
      expect(res.status).toBe(201);
      const again = (await res.json()) as { payment_id: number; redirect_url: string };
      expect(again.redirect_url).toBe(`/payment/${again.payment_id}`);
      const payment = PaymentResponse.parse(await (await call(api, "GET", `/api/payment.php?id=${again.payment_id}`, { token: a.token })).json()).payment;
      expect({ status: payment.status, stored_card: payment.stored_card }).toEqual({ status: expected, stored_card: true });
      expect((await balanceOf(api, a.userId)).credits).toBe(before.credits + (expected === "paid" ? pkg.credits : 0));
    }
  });
});

describe("the sandbox checkout api", () => {
  it("answers 404 to an unknown token and 400 to something that is no token", async () => {
    await expectApiError(await call(api, "GET", `/api/sandbox-checkout.php?token=${"A".repeat(32)}`), 404, "not_found");
    await expectApiError(await call(api, "GET", "/api/sandbox-checkout.php?token=%00"), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/sandbox-checkout.php", { body: { token: "A".repeat(32), outcome: "paid" } }), 404, "not_found");
    await expectApiError(await call(api, "POST", "/api/sandbox-checkout.php", { body: { token: "A".repeat(32), outcome: "stolen" } }), 400, "validation_failed");
  });
});

describe("the pending payments' scan", () => {
  it("reads the partial index of pending payments on PostgreSQL (EXPLAIN), not every payment", async (ctx) => {
    if (api.kind !== "postgres") ctx.skip();
    const plan = await api.db.transaction(async (tx) => {
      // The table is tiny here: without this the planner rightly prefers a sequential scan.
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = (await tx.execute(
        sql`EXPLAIN select count(*), min(created_at) from payments where status = 'pending' and created_at < now() - interval '1 hour'`,
      )) as unknown as { rows: Record<string, string>[] };
      return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toMatch(/payments_pending_idx/);
  });
});
