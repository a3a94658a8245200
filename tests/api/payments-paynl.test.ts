import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { StaffMemberDetail } from "#contract/staff-moderation";
import { auditLog, paymentEvents, payments } from "../../api/db/schema";
import { loadApiConfig } from "../../api/config";
import type { Database } from "../../api/db/client";
import { createLogger } from "../../api/logger";
import { hashPassword } from "../../api/domain/passwords";
import { refundPayment } from "../../api/domain/payments/payments";
import { configuredPaymentProviders } from "../../api/domain/payments/providers";
import { createPaymentProviders } from "../../api/services/payments";
import { paynlSignature } from "../../api/services/payments/paynl";
import { call, expectApiError, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";
import { balanceOf, newPayingMember, packagesFor, paymentRow, paymentStatus, sandboxSecret, startPayment, type PayingMember } from "./payments-support";

/**
 * The second real provider, PAY. (pay.nl), against a local server that plays its documented protocol: the
 * Order API (`POST /v1/orders`, `GET /v1/orders/{orderId}/status`, Basic authentication with the token code
 * and API token), the hosted checkout that sends the payer back, the signed exchange (SIGNED_JSON_POST: JSON
 * `{event, type, version, id, object}` with headers signature-method HMAC, signature-keyid, signature-algorithm
 * and signature = hex HMAC of the raw body), and the refund (`PATCH /v1/transactions/{orderId}/refund`).
 */
const serviceId = "SL-1234-5678";
const tokenCode = "AT-1234-5678";
const apiToken = "0123456789abcdef0123456789abcdef01234567";
const paynlRoutes = "ideal=paynl,bancontact=paynl,eps=paynl,blik=paynl,prezelewy24=paynl,paysafecard=paynl,paypal=paynl,applepay=paynl,sct=paynl";
let paynl: Server;
let paynlUrl: string;
let api: Harness;
let passwordHash: string;
const password = "paynl-test-password";

type FakeOrder = {
  id: string;
  orderId: string;
  serviceId: string;
  description: string;
  reference: string;
  status: { code: number; action: string };
  amount: { value: number; currency: string };
  integration: { test: boolean };
  links: { redirect: string; status: string };
  payments: { paymentMethod: { id: number } }[];
  returnUrl: string;
  exchangeUrl: string;
};
/** PAY.'s side: its orders by orderId, and what it was asked and answered. */
const orders = new Map<string, FakeOrder>();
const seen: { creates: Record<string, unknown>[]; statusAsks: string[]; refunds: { orderId: string; body: Record<string, unknown> }[]; exchangeReplies: string[]; unauthorized: number } = {
  creates: [],
  statusAsks: [],
  refunds: [],
  exchangeReplies: [],
  unauthorized: 0,
};
const statuses: Record<number, string> = { 20: "PENDING", 100: "PAID", [-90]: "CANCEL", [-81]: "REFUND" };

/** The documented signature, written out here again (not the adapter's code), so a wrong adapter fails. */
function documentedSignature(rawBody: string, key = apiToken, algorithm = "sha256"): string {
  return createHmac(algorithm, key).update(rawBody).digest("hex");
}

function orderJson(order: FakeOrder) {
  const { returnUrl: _return, exchangeUrl: _exchange, ...shown } = order;
  return shown;
}

/** An exchange as PAY. posts it, to the path and query of the order's exchangeUrl on our api. */
async function sendExchange(order: FakeOrder, sign: (rawBody: string) => Record<string, string> = (raw) => signedHeaders(raw)): Promise<string> {
  const rawBody = JSON.stringify({ event: "status_changed", type: "order", version: 1, id: order.id, object: orderJson(order) });
  const target = new URL(order.exchangeUrl);
  const res = await fetch(`${api.baseUrl}${target.pathname}${target.search}`, { method: "POST", headers: { "Content-Type": "application/json", ...sign(rawBody) }, body: rawBody });
  return `${res.status} ${await res.text()}`;
}

function signedHeaders(rawBody: string, keyId = tokenCode, key = apiToken, algorithm = "sha256"): Record<string, string> {
  return { "signature-method": "HMAC", "signature-keyid": keyId, "signature-algorithm": algorithm, signature: documentedSignature(rawBody, key, algorithm) };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
}

let orderCounter = 0;
let paynlDown = false;
/** PAY.'s refund API failing (a test sets it): 503, nothing refunded. */
let refundsDown = false;
/** How long PAY. takes to answer a refund: concurrent refunds overlap at PAY. as they would in production. */
let refundDelayMs = 0;
async function fakePaynl(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://paynl.invalid");
  // The hosted checkout: the payer pays or cancels; PAY. posts the exchange (unless told not to), then sends the payer back.
  const checkout = /^\/checkout\/([0-9A-Za-z]+)$/.exec(url.pathname);
  if (checkout && req.method === "GET") {
    const order = orders.get(checkout[1]!);
    if (!order) return json(res, 404, { title: "Not found" });
    const code = url.searchParams.get("outcome") === "cancel" ? -90 : 100;
    order.status = { code, action: statuses[code]! };
    if (url.searchParams.get("exchange") !== "0") seen.exchangeReplies.push(await sendExchange(order));
    res.writeHead(302, { Location: order.returnUrl }).end();
    return;
  }
  // Every API call: Basic authentication with the token code and API token.
  if (req.headers.authorization !== `Basic ${Buffer.from(`${tokenCode}:${apiToken}`).toString("base64")}`) {
    seen.unauthorized++;
    return json(res, 401, { title: "Unauthorized" });
  }
  if (url.pathname === "/v1/orders" && req.method === "POST") {
    // PAY. down (a test sets it): an order cannot be made.
    if (paynlDown) return json(res, 503, { title: "Service unavailable" });
    const body = await bodyOf(req);
    seen.creates.push(body);
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined;
    const valid =
      body.serviceId === serviceId &&
      Number.isInteger(amount?.value) &&
      typeof amount?.currency === "string" &&
      typeof body.reference === "string" &&
      /^[A-Za-z0-9]{1,64}$/.test(body.reference) &&
      typeof body.description === "string" &&
      body.description.length <= 32 &&
      typeof body.returnUrl === "string" &&
      typeof body.exchangeUrl === "string" &&
      Number.isInteger((body.paymentMethod as { id?: unknown } | undefined)?.id);
    if (!valid) return json(res, 400, { title: "Bad request" });
    const orderId = `5${String(1_000_000_000 + ++orderCounter)}X${(0x1000 + orderCounter).toString(16)}`;
    const order: FakeOrder = {
      id: randomUUID(),
      orderId,
      serviceId,
      description: body.description as string,
      reference: body.reference as string,
      status: { code: 20, action: "PENDING" },
      amount: { value: amount!.value as number, currency: amount!.currency as string },
      integration: { test: (body.integration as { test?: boolean } | undefined)?.test === true },
      links: { redirect: `${paynlUrl}/checkout/${orderId}`, status: `${paynlUrl}/v1/orders/${orderId}/status` },
      payments: [{ paymentMethod: { id: (body.paymentMethod as { id: number }).id } }],
      returnUrl: body.returnUrl as string,
      exchangeUrl: body.exchangeUrl as string,
    };
    orders.set(orderId, order);
    return json(res, 201, orderJson(order));
  }
  const status = /^\/v1\/orders\/([^/]+)\/status$/.exec(url.pathname);
  if (status && req.method === "GET") {
    seen.statusAsks.push(status[1]!);
    const order = orders.get(status[1]!);
    return order ? json(res, 200, orderJson(order)) : json(res, 404, { title: "Order not found" });
  }
  const refund = /^\/v1\/transactions\/([^/]+)\/refund$/.exec(url.pathname);
  if (refund && req.method === "PATCH") {
    const body = await bodyOf(req);
    seen.refunds.push({ orderId: refund[1]!, body });
    if (refundDelayMs) await new Promise((resolve) => setTimeout(resolve, refundDelayMs));
    if (refundsDown) return json(res, 503, { title: "Service unavailable" });
    const order = orders.get(refund[1]!);
    const amount = body.amount as { value: number; currency: string } | undefined;
    if (!order || order.status.code !== 100 || !amount || amount.value > order.amount.value || amount.currency !== order.amount.currency) return json(res, 400, { title: "Transaction cannot be refunded" });
    order.status = { code: -81, action: "REFUND" };
    // PAY. also tells the exchange about the refund (here before it answers, so the test knows when it is done).
    seen.exchangeReplies.push(await sendExchange(order));
    return json(res, 200, { orderId: order.orderId, transactionId: "EX-1234-5678-9012", description: body.description, amount: order.amount, amountRefunded: amount, refundedTransactions: [], createdAt: new Date().toISOString(), createdBy: tokenCode });
  }
  json(res, 404, { title: "Not found" });
}

beforeAll(async () => {
  paynl = createServer((req, res) => void fakePaynl(req, res));
  await new Promise<void>((resolve) => paynl.listen(0, "127.0.0.1", resolve));
  paynlUrl = `http://127.0.0.1:${(paynl.address() as AddressInfo).port}`;
  api = await startApi({
    env: {
      SANDBOX_WEBHOOK_SECRET: sandboxSecret,
      SANDBOX_NOTIFY_DELAYS_MS: "",
      PAYMENT_ROUTES: paynlRoutes,
      PAYNL_SERVICE_ID: serviceId,
      PAYNL_TOKEN_CODE: tokenCode,
      PAYNL_API_TOKEN: apiToken,
      PAYNL_API_URL: paynlUrl,
      PAYNL_REST_URL: paynlUrl,
    },
  });
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
  await new Promise((resolve) => paynl.close(resolve));
});

const newMember = () => newPayingMember(api, passwordHash, password);
async function pkgOf(who: PayingMember, country = "NL") {
  return (await packagesFor(api, who, country)).packages[1]!;
}
const outcomesOf = async (paymentId: number) => (await api.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId)).orderBy(paymentEvents.id)).map((e) => e.outcome);
const hexOf = (reference: string) => Buffer.from(reference, "base64url").toString("hex");

/** Starts a payment with PAY. and returns it with PAY.'s order. */
async function startAtPaynl(who: PayingMember, method = "ideal", country = "NL") {
  const pkg = await pkgOf(who, country);
  const created = await startPayment(api, who, { package_id: pkg.id, method });
  const row = await paymentRow(api, created.payment_id);
  const order = orders.get(row.providerReference ?? "");
  if (!order) throw new Error("PAY. has no order for this payment");
  return { pkg, ...created, row, order };
}

describe("PAY. adapter", () => {
  it("makes an order with the Order API and sends the payer to its checkout; the signed exchange credits once and gets PAY.'s answer", async () => {
    const a = await newMember();
    const before = await balanceOf(api, a.userId);
    const { pkg, payment_id, redirect_url, row, order } = await startAtPaynl(a);
    expect(redirect_url).toBe(`${paynlUrl}/checkout/${order.orderId}`);
    expect(seen.creates.at(-1)).toEqual({
      serviceId,
      amount: { value: pkg.amount, currency: "EUR" },
      description: expect.stringMatching(/^\d+ credits - /),
      reference: hexOf(row.reference),
      returnUrl: `http://localhost/payment/${payment_id}`,
      exchangeUrl: "http://localhost/api/payment-notify.php?provider=paynl",
      paymentMethod: { id: 10 },
      integration: { test: false },
    });
    expect(row).toMatchObject({ provider: "paynl", status: "pending", providerReference: order.orderId });

    // The payer pays at PAY.: the exchange comes, then the payer returns to our result page.
    const checkout = await fetch(redirect_url, { redirect: "manual" });
    expect([checkout.status, checkout.headers.get("location")]).toEqual([302, `http://localhost/payment/${payment_id}`]);
    expect(seen.exchangeReplies.at(-1)).toBe(`200 ${JSON.stringify({ result: true, description: "Processed" })}`);
    expect(seen.statusAsks.at(-1)).toBe(order.orderId);
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: before.credits + pkg.credits, paidUser: true, ledgerSum: before.credits + pkg.credits });
    expect(seen.unauthorized).toBe(0);
  });

  it("a replayed exchange, again and at once, changes nothing: credited once, the ledger equal to the balance", async () => {
    const a = await newMember();
    const { pkg, payment_id, redirect_url, order } = await startAtPaynl(a, "bancontact", "BE");
    expect((seen.creates.at(-1)!.paymentMethod as { id: number }).id).toBe(436);
    await fetch(redirect_url, { redirect: "manual" });
    const rawBody = JSON.stringify({ event: "status_changed", type: "order", version: 1, id: order.id, object: orderJson(order) });
    const replay = async () => {
      const res = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=paynl`, { method: "POST", headers: { "Content-Type": "application/json", ...signedHeaders(rawBody) }, body: rawBody });
      return res.status;
    };
    expect(await Promise.all([1, 2, 3, 4].map(replay))).toEqual([200, 200, 200, 200]);
    expect(await replay()).toBe(200);
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: pkg.credits, paidUser: true, ledgerSum: pkg.credits });
    expect(await outcomesOf(payment_id)).toEqual(["applied", ...Array(5).fill("ignored")]);
  });

  it("a forged exchange is refused: a bad or missing signature, another key or SHA-1 get 400 before PAY. is asked; a signed claim PAY. does not confirm pays nothing", async () => {
    const a = await newMember();
    const before = await balanceOf(api, a.userId);
    const { payment_id, order } = await startAtPaynl(a);
    const paid: FakeOrder = { ...order, status: { code: 100, action: "PAID" } };
    const rawBody = JSON.stringify({ event: "status_changed", type: "order", version: 1, id: order.id, object: orderJson(paid) });
    const post = async (headers: Record<string, string>, body = rawBody) => {
      const res = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=paynl`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
      return res.status;
    };
    const asked = seen.statusAsks.length;
    const wrongKey = documentedSignature(rawBody, "not-the-api-token-of-this-shop");
    expect(await post({ ...signedHeaders(rawBody), signature: wrongKey })).toBe(400);
    expect(await post({})).toBe(400);
    expect(await post({ ...signedHeaders(rawBody), "signature-method": "PLAINTEXT" })).toBe(400);
    expect(await post(signedHeaders(rawBody, "AT-9999-9999"))).toBe(400);
    expect(await post(signedHeaders(rawBody, serviceId))).toBe(400);
    expect(await post(signedHeaders(rawBody, tokenCode, apiToken, "sha1"))).toBe(400);
    // Signed, but the body changed after signing (a higher status, another amount).
    expect(await post(signedHeaders(rawBody), rawBody.replace(`"value":${order.amount.value}`, '"value":1'))).toBe(400);
    // PAY.'s legacy unsigned form (action=new_ppt&order_id=...) is no proof of anything.
    const legacy = await fetch(`${api.baseUrl}/api/payment-notify.php?provider=paynl&action=new_ppt&order_id=${order.orderId}&extra1=${hexOf((await paymentRow(api, payment_id)).reference)}`);
    expect(legacy.status).toBe(400);
    expect(seen.statusAsks.length).toBe(asked);

    // Signed (the key leaked, or PAY. is wrong), yet the Order API says the order is still pending: nothing.
    expect(await post(signedHeaders(rawBody))).toBe(200);
    // An order id PAY. does not know: nothing either.
    const unknown = JSON.stringify({ type: "order", object: { ...orderJson(paid), orderId: "59999999999X9999" } });
    expect(await post(signedHeaders(unknown), unknown)).toBe(200);
    // PAY. says the order is paid, but the signed claim names another amount: nothing.
    order.status = { code: 100, action: "PAID" };
    const cheaper = JSON.stringify({ type: "order", object: { ...orderJson(paid), amount: { value: 1, currency: "EUR" } } });
    expect(await post(signedHeaders(cheaper), cheaper)).toBe(200);
    expect(seen.statusAsks.slice(asked)).toEqual([order.orderId, "59999999999X9999", order.orderId]);
    // A test order (PAY.'s test mode) moves no money: paid at PAY., still nothing here.
    order.integration = { test: true };
    const test = JSON.stringify({ type: "order", object: orderJson(order) });
    expect(await post(signedHeaders(test), test)).toBe(200);
    expect((await paymentRow(api, payment_id)).status).toBe("pending");
    expect(await balanceOf(api, a.userId)).toEqual(before);
    expect(await outcomesOf(payment_id)).toEqual(["unconfirmed", "unconfirmed", "unconfirmed", "ignored"]);
  });

  it("refunds through PAY.'s refund API: the payment becomes refunded and the credits are taken back; PAY.'s refund exchange changes nothing", async () => {
    const a = await newMember();
    const { pkg, payment_id, redirect_url, order } = await startAtPaynl(a, "prezelewy24", "PL");
    expect(seen.creates.at(-1)).toMatchObject({ paymentMethod: { id: 2151 }, amount: { value: pkg.amount, currency: "PLN" } });
    await fetch(redirect_url, { redirect: "manual" });
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    const providers = createPaymentProviders({
      routes: { prezelewy24: "paynl" },
      verotel: null,
      paynl: { serviceId, tokenCode, apiToken, apiUrl: paynlUrl, restUrl: paynlUrl },
      sandbox: { secret: sandboxSecret, deliveryDelaysMs: [], pendingSettleMs: 0, deliver: async () => undefined, onError: () => undefined },
    });
    const replies = seen.exchangeReplies.length;
    expect(await refundPayment(api.db, providers, payment_id)).toEqual({ kind: "refunded", takenBack: pkg.credits, shortfall: 0, manual: false });
    expect(seen.refunds.at(-1)).toEqual({ orderId: order.orderId, body: { amount: { value: pkg.amount, currency: "PLN" }, description: "Refund" } });
    expect(order.status.code).toBe(-81);
    expect(seen.exchangeReplies.slice(replies)).toEqual([`200 ${JSON.stringify({ result: true, description: "Processed" })}`]);
    expect(await paymentStatus(api, a, payment_id)).toBe("refunded");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: 0, paidUser: false, ledgerSum: 0 });
    // Refunded once: a second refund is not even asked of PAY.
    const refunds = seen.refunds.length;
    expect(await refundPayment(api.db, providers, payment_id)).toEqual({ kind: "not_paid" });
    expect(seen.refunds.length).toBe(refunds);
  });

  it("support and an admin refunding the same paid payment at once: PAY. is asked once, the payment refunded once, one audit entry", async () => {
    const a = await newMember();
    const { pkg, payment_id, redirect_url, order } = await startAtPaynl(a);
    await fetch(redirect_url, { redirect: "manual" });
    expect(await paymentStatus(api, a, payment_id)).toBe("paid");
    const support = await staffToken(api, await newStaff(api, "support"));
    const admin = await staffToken(api, await newStaff(api, "admin"));
    const refunds = seen.refunds.length;
    refundDelayMs = 200;
    let answers: number[];
    try {
      answers = await Promise.all(
        [support, admin, support, admin].map(async (token) => (await staffCall(api, token, "POST", "/api/staff/member.php", { id: a.userId, action: "refund", payment_id, reason: "Asked for it", form_key: randomUUID() })).status),
      );
    } finally {
      refundDelayMs = 0;
    }
    expect(seen.refunds.slice(refunds)).toEqual([{ orderId: order.orderId, body: { amount: { value: pkg.amount, currency: "EUR" }, description: "Refund" } }]);
    expect(answers.sort()).toEqual([200, 400, 400, 400]);
    expect(await paymentStatus(api, a, payment_id)).toBe("refunded");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: 0, paidUser: false, ledgerSum: 0 });
    expect(await api.db.select().from(auditLog).where(and(eq(auditLog.action, "member.refund"), eq(auditLog.targetId, String(payment_id))))).toHaveLength(1);
  });

  it("a partial refund asks PAY. for exactly that amount and takes back the same share of the credits", async () => {
    const a = await newMember();
    const { pkg, payment_id, redirect_url, order } = await startAtPaynl(a);
    await fetch(redirect_url, { redirect: "manual" });
    const support = await staffToken(api, await newStaff(api, "support"));
    const refunds = seen.refunds.length;
    const amount = Math.floor(pkg.amount / 4);
    const res = await staffCall(api, support, "POST", "/api/staff/member.php", { id: a.userId, action: "refund", payment_id, amount, reason: "A quarter back", form_key: randomUUID() });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(seen.refunds.slice(refunds)).toEqual([{ orderId: order.orderId, body: { amount: { value: amount, currency: "EUR" }, description: "Refund" } }]);
    const left = pkg.credits - Math.floor((pkg.credits * amount) / pkg.amount);
    expect(await balanceOf(api, a.userId)).toEqual({ credits: left, paidUser: false, ledgerSum: left });
  });

  it("a refund PAY. fails leaves the payment paid with the failure recorded, nothing audited; support's retry refunds it", async () => {
    const a = await newMember();
    const { pkg, payment_id, redirect_url } = await startAtPaynl(a);
    await fetch(redirect_url, { redirect: "manual" });
    const support = await staffToken(api, await newStaff(api, "support"));
    // The failed refund gives its form's key back: the same form works on the retry.
    const form = { id: a.userId, action: "refund", payment_id, reason: "Charged twice", form_key: randomUUID() };
    const refund = () => staffCall(api, support, "POST", "/api/staff/member.php", form);
    refundsDown = true;
    try {
      await expectApiError(await refund(), 503, "provider_unavailable");
    } finally {
      refundsDown = false;
    }
    expect((await paymentRow(api, payment_id)).status).toBe("paid");
    expect(await outcomesOf(payment_id)).toContain("refund_failed");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: pkg.credits, paidUser: true, ledgerSum: pkg.credits });
    expect(await api.db.select().from(auditLog).where(and(eq(auditLog.action, "member.refund"), eq(auditLog.targetId, String(payment_id))))).toHaveLength(0);
    const detail = StaffMemberDetail.parse(await (await staffCall(api, support, "GET", `/api/staff/member.php?id=${a.userId}`)).json());
    expect(detail.payments.find((p) => p.id === payment_id)).toMatchObject({ status: "paid", refundable: true });

    const retried = await refund();
    expect(retried.status).toBe(200);
    expect(await paymentStatus(api, a, payment_id)).toBe("refunded");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: 0, paidUser: false, ledgerSum: 0 });
  });

  it("a cancelled order becomes cancelled; a paid order whose exchange was lost is found by the result page's status ask, once", async () => {
    const a = await newMember();
    const cancelled = await startAtPaynl(a, "paypal");
    await fetch(`${cancelled.redirect_url}?outcome=cancel`, { redirect: "manual" });
    expect((await paymentRow(api, cancelled.payment_id)).status).toBe("cancelled");

    const lost = await startAtPaynl(a, "sct");
    expect((seen.creates.at(-1)!.paymentMethod as { id: number }).id).toBe(136);
    await fetch(`${lost.redirect_url}?exchange=0`, { redirect: "manual" });
    expect((await paymentRow(api, lost.payment_id)).status).toBe("pending");
    // The result page asks the api, which asks PAY.'s Order API (at most every 10 s per payment).
    expect(await paymentStatus(api, a, lost.payment_id)).toBe("paid");
    expect(await paymentStatus(api, a, lost.payment_id)).toBe("paid");
    expect(await balanceOf(api, a.userId)).toEqual({ credits: lost.pkg.credits, paidUser: true, ledgerSum: lost.pkg.credits });
  });

  it("a PAY. that does not answer a new order: 503 'An error occured, please try again later.', the payment ended as failed, nothing credited", async () => {
    const a = await newMember();
    const pkg = await pkgOf(a, "NL");
    paynlDown = true;
    try {
      const res = await call(api, "POST", "/api/payment.php", { token: a.token, body: { package_id: pkg.id, method: "ideal" } });
      const refused = await expectApiError(res, 503, "provider_unavailable");
      expect([refused.message, res.headers.get("retry-after")]).toEqual(["An error occured, please try again later.", "60"]);
    } finally {
      paynlDown = false;
    }
    const [row] = await api.db.select().from(payments).where(eq(payments.userId, a.userId));
    expect(row?.status).toBe("failed");
    expect(await balanceOf(api, a.userId)).toMatchObject({ credits: 0 });
  });

  it("routes only the configured methods to PAY., and names the spec's prezelewy24 Przelewy24", async () => {
    const a = await newMember();
    const { methods } = await packagesFor(api, a, "PL");
    expect(methods.find((m) => m.id === "prezelewy24")?.name).toBe("Przelewy24");
    const { redirect_url } = await startPayment(api, a, { package_id: (await pkgOf(a, "DE")).id, method: "cards" });
    expect(redirect_url).toMatch(/^\/sandbox-checkout\//);
  });
});

describe("PAY. configuration", () => {
  const logger = createLogger("api", "silent");
  const database = {} as Database;
  // Last in this file: loadApiConfig sets the process's password hash cost (17 in production mode).
  const load = (env: Record<string, string>) => {
    const all: Record<string, string> = { SESSION_SECRET: "s".repeat(40), DATA_DIR: api.dataDir, SMTP_URL: "smtp://127.0.0.1:2525", ...env };
    return loadApiConfig(all as NodeJS.ProcessEnv);
  };

  it("refuses to start when a route names PAY. without its keys, and PAY.'s test mode in production mode", () => {
    expect(() => configuredPaymentProviders(database, load({ APP_MODE: "demo", PAYMENT_ROUTES: "ideal=paynl", PAYNL_SERVICE_ID: serviceId }), logger)).toThrow(
      "Invalid api configuration: PAYMENT_ROUTES names paynl but PAYNL_SERVICE_ID, PAYNL_TOKEN_CODE or PAYNL_API_TOKEN is unset",
    );
    const keys = { PAYNL_SERVICE_ID: serviceId, PAYNL_TOKEN_CODE: tokenCode, PAYNL_API_TOKEN: apiToken };
    expect(() => configuredPaymentProviders(database, load({ APP_MODE: "production", PAYMENT_ROUTES: "ideal=paynl", PAYNL_TEST_MODE: "true", ...keys }), logger)).toThrow(
      "Invalid api configuration: PAYNL_TEST_MODE=true is refused in production mode (PAY.'s test orders would credit members without payment)",
    );
    const production = configuredPaymentProviders(database, load({ APP_MODE: "production", PAYMENT_ROUTES: paynlRoutes, ...keys }), logger);
    expect(production.forMethod("blik")?.id).toBe("paynl");
    // Cards are not routed to PAY., and production has no sandbox to fall back on.
    expect(production.forMethod("cards")).toBeNull();
    expect(() => load({ PAYNL_SERVICE_ID: "1234" })).toThrow("Invalid api configuration: PAYNL_SERVICE_ID: PAYNL_SERVICE_ID must look like SL-1234-5678");
  });

  it("signs as PAY.'s signing library does (its published HMAC test vector: an empty body, SHA-512, key of SL-1234-1234)", () => {
    const key = "150a14ed5bea6cc731cf86c41566ac427a8db48ef1b9fd626664b3bfbb99071fa4c922f33dde38719b8c8354e2b7ab9d77e0e67fc12843920a712e73d558e197";
    expect(paynlSignature("sha512", key, "")).toBe("1e23c01aec9410779fb4efdcd8582ff66d3d8f99b17060272d564e05c33b475770ce5d2277ee4fb1917c0716e10d1533f4b4925e4870e2cd1f0884f12f1de793");
  });
});
