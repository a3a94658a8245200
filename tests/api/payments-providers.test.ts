import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hashPassword } from "../../api/domain/passwords";
import { createVerotelProvider } from "../../api/services/payments/verotel";
import { createPaymentProviders } from "../../api/services/payments";
import { settleAbandonedPayments } from "../../api/domain/payments/payments";
import { paymentEvents, payments } from "../../api/db/schema";
import { eq } from "drizzle-orm";
import { call, startApi, type Harness } from "./harness";
import { balanceOf, newPayingMember, packagesFor, paymentRow, paymentStatus, sandboxSecret, startPayment, type PayingMember } from "./payments-support";

/**
 * The real provider's adapter against a local server that plays Verotel FlexPay as documented: the signed
 * startorder URL (protocol 4: SHA-256 of `key:k1=v1:k2=v2` with keys sorted, signature left out), the
 * order page's redirect to successURL, the signed GET postback that wants "OK", and the status service.
 * Also the sandbox's own deliveries: late, more than once, and a pending payment that settles.
 */
const shopId = "68849";
const signatureKey = "flexpay-test-signature-key";
let flexpay: Server;
let flexpayUrl: string;
let api: Harness;
let passwordHash: string;
const password = "providers-test-password";
/** What the fake Verotel saw and answered. */
const seen: { startorders: URLSearchParams[]; postbackReplies: string[]; statusAsks: string[] } = { startorders: [], postbackReplies: [], statusAsks: [] };
/** referenceID -> sale the fake Verotel approved. */
const sales = new Map<string, { saleID: string; priceAmount: string; priceCurrency: string; result: "APPROVED" | "DECLINED" }>();
/** The fake status service fails (HTTP 500) while this is set. */
let statusDown = false;

/** The documented signature, written out again here (not the adapter's code) so a wrong adapter fails. */
function documentedSignature(params: Record<string, string>): string {
  const parts = Object.entries(params)
    .filter(([key]) => key !== "signature")
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`);
  return createHash("sha256").update([signatureKey, ...parts].join(":")).digest("hex");
}

async function fakeVerotel(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://verotel.invalid");
  const params = Object.fromEntries(url.searchParams);
  if (url.pathname === "/startorder") {
    seen.startorders.push(url.searchParams);
    // email is sent unsigned (documented); approve is the fake order page's own switch for the test.
    const { email: _unsigned, approve: _choice, ...signed } = params;
    const valid =
      params.signature === documentedSignature(signed) &&
      params.version === "4" &&
      params.shopID === shopId &&
      params.type === "purchase" &&
      /^\d+\.\d{2}$/.test(params.priceAmount ?? "") &&
      /^[A-Z]{3}$/.test(params.priceCurrency ?? "") &&
      Boolean(params.description) &&
      Boolean(params.referenceID);
    if (!valid) {
      res.writeHead(400, { "Content-Type": "text/plain" }).end("ERROR - Invalid signature or parameters");
      return;
    }
    // The order page: the payer pays (approve=1) or declines. An approved sale is posted back, then the payer returns.
    if (url.searchParams.get("approve") !== "0") {
      const saleID = String(1_000_000 + sales.size);
      sales.set(params.referenceID!, { saleID, priceAmount: params.priceAmount!, priceCurrency: params.priceCurrency!, result: "APPROVED" });
      const postback: Record<string, string> = {
        shopID: shopId,
        type: "purchase",
        saleID,
        referenceID: params.referenceID!,
        priceAmount: params.priceAmount!,
        priceCurrency: params.priceCurrency!,
        paymentMethod: params.paymentMethod ?? "CC",
        transactionID: `T${saleID}`,
      };
      postback.signature = documentedSignature(postback);
      const reply = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=verotel&${new URLSearchParams(postback)}`);
      seen.postbackReplies.push(`${reply.status} ${await reply.text()}`);
      res.writeHead(302, { Location: params.successURL! }).end();
      return;
    }
    sales.set(params.referenceID!, { saleID: String(2_000_000 + sales.size), priceAmount: params.priceAmount!, priceCurrency: params.priceCurrency!, result: "DECLINED" });
    res.writeHead(302, { Location: params.declineURL! }).end();
    return;
  }
  if (url.pathname === "/salestatus") {
    const { signature, ...rest } = params;
    if (signature !== documentedSignature(rest)) {
      res.writeHead(400).end("ERROR");
      return;
    }
    seen.statusAsks.push(params.referenceID ?? "");
    if (statusDown) {
      res.writeHead(500).end("ERROR");
      return;
    }
    const sale = sales.get(params.referenceID ?? "");
    const found = sale
      ? [`response: FOUND`, `shopID: ${shopId}`, `saleID: ${sale.saleID}`, `referenceID: ${params.referenceID}`, `saleResult: ${sale.result}`, `priceAmount: ${sale.priceAmount}`, `priceCurrency: ${sale.priceCurrency}`]
      : ["response: NOTFOUND"];
    res.writeHead(200, { "Content-Type": "text/plain" }).end(`${found.join("\n")}\n`);
    return;
  }
  res.writeHead(404).end();
}

beforeAll(async () => {
  flexpay = createServer((req, res) => void fakeVerotel(req, res));
  await new Promise<void>((resolve) => flexpay.listen(0, "127.0.0.1", resolve));
  flexpayUrl = `http://127.0.0.1:${(flexpay.address() as AddressInfo).port}`;
  api = await startApi({
    env: {
      SANDBOX_WEBHOOK_SECRET: sandboxSecret,
      SANDBOX_NOTIFY_DELAYS_MS: "0,250",
      SANDBOX_PENDING_SETTLE_MS: "400",
      PAYMENT_ROUTES: "cards=verotel,sdd=verotel",
      VEROTEL_SHOP_ID: shopId,
      VEROTEL_SIGNATURE_KEY: signatureKey,
      VEROTEL_URL: flexpayUrl,
    },
  });
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
  await new Promise((resolve) => flexpay.close(resolve));
});

const newMember = () => newPayingMember(api, passwordHash, password);
async function pkgOf(who: PayingMember, country = "DE") {
  return (await packagesFor(api, who, country)).packages[1]!;
}

describe("Verotel FlexPay adapter", () => {
  it("sends the payer to a signed startorder URL that the protocol server accepts; the postback credits once and is answered OK", async () => {
    const a = await newMember();
    const pkg = await pkgOf(a);
    const before = await balanceOf(api, a.userId);
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: pkg.id, method: "cards" });
    expect(redirect_url.startsWith(`${flexpayUrl}/startorder?`)).toBe(true);
    const sent = new URL(redirect_url).searchParams;
    expect(sent.get("priceAmount")).toBe(`${Math.floor(pkg.amount / 100)}.${String(pkg.amount % 100).padStart(2, "0")}`);
    expect(sent.get("priceCurrency")).toBe("EUR");
    expect(sent.get("paymentMethod")).toBe("CC");
    expect(sent.get("successURL")).toBe(`http://localhost/payment/${payment_id}`);
    expect(sent.get("referenceID")).toBe((await paymentRow(api, payment_id)).reference);

    const order = await fetch(redirect_url, { redirect: "manual" });
    expect(order.status).toBe(302);
    expect(order.headers.get("location")).toBe(`http://localhost/payment/${payment_id}`);
    expect(seen.postbackReplies.at(-1)).toBe("200 OK");
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    expect((await paymentRow(api, payment_id)).providerReference).toMatch(/^\d+$/);
    expect(await balanceOf(api, a.userId)).toEqual({ credits: before.credits + pkg.credits, paidUser: true, ledgerSum: before.credits + pkg.credits });
  });

  it("a replayed postback changes nothing; a bad or SHA-1 signature, another shop or another amount gets 400 or changes nothing", async () => {
    const a = await newMember();
    const pkg = await pkgOf(a);
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: pkg.id, method: "sdd" });
    expect(new URL(redirect_url).searchParams.get("paymentMethod")).toBe("DDEU");
    const row = await paymentRow(api, payment_id);
    const base: Record<string, string> = { shopID: shopId, type: "purchase", saleID: "555", referenceID: row.reference, priceAmount: new URL(redirect_url).searchParams.get("priceAmount")!, priceCurrency: "EUR", transactionID: "T555" };
    const postback = (params: Record<string, string>) => fetch(`${api.baseUrl}/api/payment-notify.php?provider=verotel&${new URLSearchParams(params)}`);

    expect((await postback({ ...base, signature: "0".repeat(64) })).status).toBe(400);
    const sha1 = createHash("sha1").update([signatureKey, ...Object.keys(base).sort().map((k) => `${k}=${base[k]}`)].join(":")).digest("hex");
    expect((await postback({ ...base, signature: sha1 })).status).toBe(400);
    const otherShop = { ...base, shopID: "1" };
    expect((await postback({ ...otherShop, signature: documentedSignature(otherShop) })).status).toBe(400);
    const cheaper = { ...base, priceAmount: "0.01" };
    expect((await postback({ ...cheaper, signature: documentedSignature(cheaper) })).status).toBe(200);
    expect(await paymentStatus(api, a, payment_id)).toBe("pending");
    expect((await postback({ ...base, "signature[]": "x" })).status).toBe(400);

    // Verotel's status service knows the sale: the postback pays, once.
    sales.set(row.reference, { saleID: "555", priceAmount: base.priceAmount!, priceCurrency: "EUR", result: "APPROVED" });
    const before = await balanceOf(api, a.userId);
    for (let i = 0; i < 3; i++) {
      const res = await postback({ ...base, signature: documentedSignature(base) });
      expect([res.status, await res.text()]).toEqual([200, "OK"]);
    }
    expect((await balanceOf(api, a.userId)).credits).toBe(before.credits + pkg.credits);
  });

  it("a declined order has no postback: the payer returns, and the status service (not the return) makes it failed", async () => {
    const a = await newMember();
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: (await pkgOf(a)).id, method: "cards" });
    const order = await fetch(`${redirect_url}&approve=0`, { redirect: "manual" });
    expect(order.headers.get("location")).toBe(`http://localhost/payment/${payment_id}`);
    expect(seen.postbackReplies).toHaveLength(1);
    // The result page asks for the payment; the api asks Verotel's status service, which says DECLINED.
    expect(await paymentStatus(api, a, payment_id)).toBe("failed");
    expect((await balanceOf(api, a.userId)).credits).toBe(0);
  });

  it("reads a sale's status from the status service with a signed request", async () => {
    const adapter = createVerotelProvider({ shopId, signatureKey, baseUrl: flexpayUrl });
    const a = await newMember();
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: (await pkgOf(a)).id, method: "cards" });
    const reference = (await paymentRow(api, payment_id)).reference;
    expect(await adapter.readStatus(reference)).toBeNull();
    await fetch(redirect_url, { redirect: "manual" });
    const sent = new URL(redirect_url).searchParams;
    expect(await adapter.readStatus(reference)).toEqual({
      reference,
      status: "paid",
      amount: Math.round(Number(sent.get("priceAmount")) * 100),
      currency: "EUR",
      eventId: "status-service",
      providerReference: sales.get(reference)!.saleID,
    });
  });

  it("our own signed purchase URL replayed as a postback is refused: the payment stays pending, no credits", async () => {
    const a = await newMember();
    const before = await balanceOf(api, a.userId);
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: (await pkgOf(a)).id, method: "cards" });
    // The attack of docs/security.md (Payments): same key, type=purchase, shopID and referenceID, all signed by us.
    const ours = new URL(redirect_url).search.slice(1);
    const asked = seen.statusAsks.length;
    for (const query of [`provider=verotel&${ours}`, `${ours}&provider=verotel`]) {
      const res = await fetch(`${api.baseUrl}/api/payment-notify.php?${query}`);
      expect(res.status).toBe(400);
    }
    expect((await paymentRow(api, payment_id)).status).toBe("pending");
    expect(await balanceOf(api, a.userId)).toEqual(before);
    // Refused before anything else: the status service was not even asked.
    expect(seen.statusAsks.length).toBe(asked);
  });

  it("a postback with Verotel's fields pays only once the status service confirms that sale, amount and currency; once", async () => {
    const a = await newMember();
    const pkg = await pkgOf(a);
    const before = await balanceOf(api, a.userId);
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: pkg.id, method: "cards" });
    const row = await paymentRow(api, payment_id);
    const price = new URL(redirect_url).searchParams.get("priceAmount")!;
    const sale = { shopID: shopId, type: "purchase", saleID: "777001", transactionID: "888001", referenceID: row.reference, priceAmount: price, priceCurrency: "EUR", paymentMethod: "CC" };
    const postback = async (params: Record<string, string>) => {
      const res = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=verotel&${new URLSearchParams({ ...params, signature: documentedSignature(params) })}`);
      return `${res.status} ${await res.text()}`;
    };
    const state = async () => ({ status: (await paymentRow(api, payment_id)).status, credits: (await balanceOf(api, a.userId)).credits });
    const pending = { status: "pending", credits: before.credits };

    // Not known to the status service, or the service is down: answered OK (Verotel refunds a card sale it gets no OK for), still pending.
    const asked = seen.statusAsks.length;
    expect(await postback(sale)).toBe("200 OK");
    expect(seen.statusAsks.slice(asked)).toEqual([row.reference]);
    expect(await state()).toEqual(pending);
    statusDown = true;
    try {
      expect(await postback(sale)).toBe("200 OK");
    } finally {
      statusDown = false;
    }
    expect(await state()).toEqual(pending);
    // Known, but as another sale, declined, or for another amount or currency: still pending.
    for (const known of [
      { saleID: "777999", priceAmount: price, priceCurrency: "EUR", result: "APPROVED" as const },
      { saleID: "777001", priceAmount: price, priceCurrency: "EUR", result: "DECLINED" as const },
      { saleID: "777001", priceAmount: "0.01", priceCurrency: "EUR", result: "APPROVED" as const },
      { saleID: "777001", priceAmount: price, priceCurrency: "USD", result: "APPROVED" as const },
    ]) {
      sales.set(row.reference, known);
      expect(await postback(sale)).toBe("200 OK");
      expect(await state()).toEqual(pending);
    }
    // Verotel confirms a sale of 0.01: the postback says so too, but the payment's amount is the package's.
    sales.set(row.reference, { saleID: "777001", priceAmount: "0.01", priceCurrency: "EUR", result: "APPROVED" });
    expect(await postback({ ...sale, priceAmount: "0.01" })).toBe("200 OK");
    expect(await state()).toEqual(pending);
    const outcomes = (await api.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment_id))).map((e) => e.outcome);
    expect(outcomes).toEqual([...Array(6).fill("unconfirmed"), "mismatch"]);

    // Confirmed: paid once, however often (and however concurrently) Verotel or anyone sends it again.
    sales.set(row.reference, { saleID: "777001", priceAmount: price, priceCurrency: "EUR", result: "APPROVED" });
    expect(await Promise.all([1, 2, 3, 4].map(() => postback(sale)))).toEqual(Array(4).fill("200 OK"));
    expect(await postback(sale)).toBe("200 OK");
    expect(await state()).toEqual({ status: "paid", credits: before.credits + pkg.credits });
    expect((await paymentRow(api, payment_id)).providerReference).toBe("777001");
    expect((await balanceOf(api, a.userId)).ledgerSum).toBe(before.credits + pkg.credits);
  });

  it("the status service's word on the result page pays only for the payment's amount and currency", async () => {
    const a = await newMember();
    const before = await balanceOf(api, a.userId);
    const { payment_id } = await startPayment(api, a, { package_id: (await pkgOf(a)).id, method: "cards" });
    const row = await paymentRow(api, payment_id);
    sales.set(row.reference, { saleID: "778001", priceAmount: "0.01", priceCurrency: "EUR", result: "APPROVED" });
    // The result page asks the status service while pending: APPROVED, but for 0.01.
    expect(await paymentStatus(api, a, payment_id)).toBe("pending");
    expect(await balanceOf(api, a.userId)).toEqual(before);
    expect((await api.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment_id))).map((e) => e.outcome)).toEqual(["mismatch"]);
  });

  it("routes only the configured methods to Verotel; the others stay with the sandbox", async () => {
    const a = await newMember();
    const { redirect_url } = await startPayment(api, a, { package_id: (await pkgOf(a)).id, method: "sofort" });
    expect(redirect_url).toMatch(/^\/sandbox-checkout\//);
  });
});

describe("the sandbox's own deliveries", () => {
  /** What the api did with each delivery of the payment's notifications, in no particular order. */
  const outcomesOf = async (paymentId: number) => (await api.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId))).map((e) => e.outcome);
  async function waitFor(check: () => Promise<boolean>, ms = 4000) {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("timed out");
  }

  it("notifies the payer's choice (twice, once late) and the credits come once", async () => {
    const a = await newMember();
    const pkg = await pkgOf(a, "NL");
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    const token = redirect_url.split("/").pop();
    expect((await call(api, "POST", "/api/sandbox-checkout.php", { body: { token, outcome: "paid" } })).status).toBe(200);
    // A second submit of the checkout (back button) schedules nothing more.
    expect((await call(api, "POST", "/api/sandbox-checkout.php", { body: { token, outcome: "failed" } })).status).toBe(200);
    // Both deliveries (0 and 250 ms, SANDBOX_NOTIFY_DELAYS_MS above) handled: one applied, the late one ignored.
    await waitFor(async () => (await outcomesOf(payment_id)).length === 2);
    expect((await outcomesOf(payment_id)).sort()).toEqual(["applied", "ignored"]);
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    expect((await balanceOf(api, a.userId)).credits).toBe(pkg.credits);
  });

  it("a pending payment stays processing, then settles as paid", async () => {
    const a = await newMember();
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: (await pkgOf(a, "NL")).id, method: "sct" });
    await call(api, "POST", "/api/sandbox-checkout.php", { body: { token: redirect_url.split("/").pop(), outcome: "pending" } });
    // The "pending" notification arrived and changed nothing (the "paid" one follows 400 ms later).
    await waitFor(async () => (await outcomesOf(payment_id)).includes("ignored"));
    expect(await paymentStatus(api, a, payment_id)).toBe("pending");
    await waitFor(async () => (await paymentStatus(api, a, payment_id)) === "paid");
  });

  it("a cancelled choice is delivered as cancelled", async () => {
    const a = await newMember();
    const { payment_id, redirect_url } = await startPayment(api, a, { package_id: (await pkgOf(a, "NL")).id, method: "paypal" });
    await call(api, "POST", "/api/sandbox-checkout.php", { body: { token: redirect_url.split("/").pop(), outcome: "cancelled" } });
    await waitFor(async () => (await paymentStatus(api, a, payment_id)) === "cancelled");
    expect((await balanceOf(api, a.userId)).credits).toBe(0);
  });
});

describe("the settle job: no payment stays pending forever", () => {
  /** Providers as the api's own, but the sandbox delivers over HTTP to the api's webhook, as a provider would. */
  const providers = () =>
    createPaymentProviders({
      routes: { cards: "verotel", sdd: "verotel" },
      verotel: { shopId, signatureKey, baseUrl: flexpayUrl },
      sandbox: {
        secret: sandboxSecret,
        deliveryDelaysMs: [0],
        pendingSettleMs: 0,
        deliver: async (rawBody, signature) => {
          await fetch(`${api.baseUrl}/api/payment-notify.php?provider=sandbox`, { method: "POST", headers: { "X-Sandbox-Signature": signature }, body: rawBody });
        },
        onError: () => undefined,
      },
    });
  const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000);
  async function waitForStatus(who: PayingMember, id: number, status: string) {
    const until = Date.now() + 4000;
    while (Date.now() < until && (await paymentStatus(api, who, id)) !== status) await new Promise((r) => setTimeout(r, 50));
    expect(await paymentStatus(api, who, id)).toBe(status);
  }

  it("expires an abandoned sandbox checkout after its lifetime, and not before", async () => {
    const a = await newMember();
    const { payment_id } = await startPayment(api, a, { package_id: (await pkgOf(a, "NL")).id, method: "ideal" });
    await settleAbandonedPayments(api.db, providers(), inMinutes(5));
    expect((await paymentRow(api, payment_id)).sandboxOutcome).toBeNull();
    await settleAbandonedPayments(api.db, providers(), inMinutes(31));
    await waitForStatus(a, payment_id, "expired");
  });

  it("notifies again a sandbox outcome whose notifications were lost (a restart), and credits once", async () => {
    const a = await newMember();
    const pkg = await pkgOf(a, "NL");
    const { payment_id } = await startPayment(api, a, { package_id: pkg.id, method: "ideal" });
    // The payer chose "paid" but the api restarted before the timers fired.
    await api.db.update(payments).set({ sandboxOutcome: "paid" }).where(eq(payments.id, payment_id));
    await settleAbandonedPayments(api.db, providers(), inMinutes(2));
    await waitForStatus(a, payment_id, "paid");
    await settleAbandonedPayments(api.db, providers(), inMinutes(3));
    expect((await balanceOf(api, a.userId)).credits).toBe(pkg.credits);
  });

  it("asks Verotel about a pending order, and expires one it still does not know after a day", async () => {
    const a = await newMember();
    const { payment_id } = await startPayment(api, a, { package_id: (await pkgOf(a)).id, method: "cards" });
    expect((await settleAbandonedPayments(api.db, providers(), inMinutes(16))).asked).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(api, payment_id)).status).toBe("pending");
    await settleAbandonedPayments(api.db, providers(), inMinutes(25 * 60));
    expect((await paymentRow(api, payment_id)).status).toBe("expired");
  });
});

