import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { PaymentMethodId } from "#contract/payments";
import type { CreatePaymentInput, CreatedPayment, NotificationInput, PaymentProvider, ProviderNotification, ProviderStatus } from "./types";

/**
 * PAY. (pay.nl), docs/decisions/017-second-payment-provider.md: an order made with the Order API
 * (`POST {connect}/v1/orders`, Basic authentication with the API token code and token) sends the payer to
 * PAY.'s checkout (`links.redirect`); PAY. posts a signed exchange (its webhook, "SIGNED_JSON_POST") to the
 * order's exchangeUrl on every status change; `GET {connect}/v1/orders/{orderId}/status` answers the order's
 * state; `PATCH {rest}/v1/transactions/{orderId}/refund` gives the money back.
 *
 * The exchange's signature (headers `signature-method: HMAC`, `signature-keyid`, `signature-algorithm`,
 * `signature`: hex HMAC of the raw body) proves that PAY. sent it; it still pays only once the Order API,
 * asked server to server, confirms that order with the same status, amount and currency.
 */
export type PaynlOptions = {
  /** The sales location (SL-1234-5678) every order is made for. */
  serviceId: string;
  /** The API token code (AT-1234-5678) and its token: every call's Basic authentication, and the key of exchanges signed with the AT code. */
  tokenCode: string;
  apiToken: string;
  /** The sales location's secret: the key of exchanges signed with the SL code (unset: those are refused). */
  serviceSecret?: string | null;
  /** The Order API (create, status), https://connect.pay.nl. */
  apiUrl: string;
  /** The transaction API (refund), https://rest.pay.nl. */
  restUrl: string;
  /** PAY.'s test mode: orders are made as tests and only then do test orders count (never in production mode). */
  testMode?: boolean;
  fetch?: typeof fetch;
};

/** Our method ids as PAY.'s payment option ids (its list of payment methods; the ids its own plugins send). */
export const paynlMethods: Partial<Record<PaymentMethodId, number>> = {
  ideal: 10,
  bancontact: 436,
  eps: 2062,
  blik: 2856,
  prezelewy24: 2151,
  paysafecard: 553,
  paypal: 138,
  applepay: 2277,
  sct: 136,
};

/** The HMACs PAY.'s signing library may name; SHA-1 and MD5 are refused. */
const signatureAlgorithms = new Set(["sha256", "sha384", "sha512"]);

/** PAY.'s order id ("52123456789X1a2b"; EX-1234-1234-1234 in older APIs): it goes into URL paths, so bounded and plain. */
const orderIdPattern = /^[0-9A-Za-z-]{1,40}$/;

const Money = z.object({ value: z.number().int().min(0), currency: z.string().regex(/^[A-Z]{3}$/) });

/** The order as the Order API and the exchanges state it (only what we read). */
const PaynlOrder = z.object({
  orderId: z.string().regex(orderIdPattern),
  serviceId: z.string(),
  reference: z.string().nullable().optional(),
  status: z.object({ code: z.number().int(), action: z.string().optional() }),
  amount: Money,
  integration: z.object({ test: z.boolean().nullable().optional() }).nullable().optional(),
  links: z.object({ redirect: z.string().optional() }).nullable().optional(),
});
type PaynlOrder = z.infer<typeof PaynlOrder>;

/** A TGU exchange: the event and the whole order as it is now. */
const PaynlExchange = z.object({ event: z.string().max(100).optional(), type: z.literal("order").optional(), object: PaynlOrder });

/** PAY.'s transaction statuses (developer.pay.nl, "Transaction statuses") in our words. */
export function paynlStatus(code: number): ProviderStatus {
  if (code === 100) return "paid";
  // -90: cancelled by the payer; -61: voided after an authorisation (Order API).
  if (code === -90 || code === -61) return "cancelled";
  if (code === -80) return "expired";
  // -60: failure at the method or issuer; -63: refused by the processor; -64: declined.
  if (code === -60 || code === -63 || code === -64) return "failed";
  // Pending (20, 50, 90, 98), authorised or in verification (95, 85), a partial or wrong amount (80, -51), refunds and chargebacks (-81, -82, -71...): nothing we act on.
  return "pending";
}

/**
 * Our reference (24 random bytes, base64url) as PAY.'s reference, which takes letters and digits only:
 * the same bytes in hex (48 characters, within its 64); null for one that does not come back the same.
 */
export function paynlReference(reference: string): string | null {
  const hex = Buffer.from(reference, "base64url").toString("hex");
  return hex.length > 0 && hex.length <= 64 && ourReference(hex) === reference ? hex : null;
}

/** Our reference from PAY.'s (lowercase hex), or null. */
export function ourReference(value: unknown): string | null {
  if (typeof value !== "string" || !/^(?:[0-9a-f]{2}){1,32}$/.test(value)) return null;
  return Buffer.from(value, "hex").toString("base64url");
}

/** The signature PAY. puts on an exchange: hex HMAC of the raw body with the key its keyid names. */
export function paynlSignature(algorithm: string, key: string, rawBody: string): string {
  return createHmac(algorithm, key).update(rawBody, "utf8").digest("hex");
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function createPaynlProvider(options: PaynlOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const restUrl = options.restUrl.replace(/\/+$/, "");
  const headers = {
    Authorization: `Basic ${Buffer.from(`${options.tokenCode}:${options.apiToken}`).toString("base64")}`,
    Accept: "application/json",
    "Content-Type": "application/json",
  };

  /** An order of our sales location, in our words (null: another location's, or not one of our references). */
  function notificationOf(order: PaynlOrder, eventId: string): ProviderNotification | null {
    const reference = ourReference(order.reference);
    if (order.serviceId !== options.serviceId || !reference) return null;
    // A test order (PAY.'s test mode) moves no money: it counts only when we run in test mode ourselves.
    const test = order.integration?.test === true;
    return {
      reference,
      status: test && !options.testMode ? "pending" : paynlStatus(order.status.code),
      amount: order.amount.value,
      currency: order.amount.currency,
      eventId,
      providerReference: order.orderId,
    };
  }

  async function readStatus(reference: string, providerReference?: string | null): Promise<ProviderNotification | null> {
    if (!providerReference || !orderIdPattern.test(providerReference)) return null;
    const res = await doFetch(`${apiUrl}/v1/orders/${encodeURIComponent(providerReference)}/status`, { headers, signal: AbortSignal.timeout(10_000) });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`PAY. order status answered ${res.status}`);
    const parsed = PaynlOrder.safeParse(parseJson((await res.text()).slice(0, 256_000)));
    // An answer must be about the order we asked for, of our reference.
    if (!parsed.success || parsed.data.orderId !== providerReference) return null;
    const answer = notificationOf(parsed.data, "status-api");
    return answer?.reference === reference ? answer : null;
  }

  return {
    id: "paynl",
    methods: Object.keys(paynlMethods) as PaymentMethodId[],
    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const paymentMethod = paynlMethods[input.method];
      const reference = paynlReference(input.reference);
      if (!paymentMethod || !reference) throw new Error(`PAY. takes no payment for method ${input.method} or reference`);
      const res = await doFetch(`${apiUrl}/v1/orders`, {
        method: "POST",
        headers,
        signal: AbortSignal.timeout(15_000),
        body: JSON.stringify({
          serviceId: options.serviceId,
          amount: { value: input.amount, currency: input.currency },
          // Shown on the payer's statement: PAY. takes 32 characters.
          description: input.description.slice(0, 32),
          reference,
          returnUrl: input.returnUrl,
          // Through web, like every /api path: web lets this server-to-server path pass (server/request-guard.ts).
          exchangeUrl: `${new URL(input.returnUrl).origin}/api/payment-notify.php?provider=paynl`,
          paymentMethod: { id: paymentMethod },
          integration: { test: options.testMode === true },
        }),
      });
      if (!res.ok) throw new Error(`PAY. order create answered ${res.status}`);
      const parsed = PaynlOrder.safeParse(parseJson((await res.text()).slice(0, 256_000)));
      const order = parsed.success ? parsed.data : null;
      const redirect = order?.links?.redirect ?? "";
      // The order must be ours as we asked for it, with a checkout to send the payer to.
      if (!order || order.serviceId !== options.serviceId || order.reference !== reference || order.amount.value !== input.amount || order.amount.currency !== input.currency || !/^https?:\/\//.test(redirect) || !URL.canParse(redirect)) {
        throw new Error("PAY. order create gave an unexpected answer");
      }
      return { redirectUrl: redirect, providerReference: order.orderId };
    },
    readStatus,
    verifyNotification(input: NotificationInput): ProviderNotification | null {
      const method = input.headers["signature-method"];
      const keyId = input.headers["signature-keyid"];
      const algorithm = (input.headers["signature-algorithm"] ?? "sha256").toLowerCase();
      const signature = input.headers["signature"];
      if (method?.toUpperCase() !== "HMAC" || !keyId || !signature || !/^[0-9a-fA-F]{64,128}$/.test(signature) || !signatureAlgorithms.has(algorithm)) return null;
      // The keyid names the key: the API token of our token code, or the secret of our sales location.
      const key = keyId === options.tokenCode ? options.apiToken : keyId === options.serviceId && options.serviceSecret ? options.serviceSecret : null;
      if (!key || !sameHex(signature, paynlSignature(algorithm, key, input.rawBody))) return null;
      const parsed = PaynlExchange.safeParse(parseJson(input.rawBody));
      if (!parsed.success) return null;
      const order = parsed.data.object;
      return notificationOf(order, `${order.orderId}:${order.status.code}`);
    },
    async confirm(claim: ProviderNotification): Promise<ProviderNotification | null> {
      if (claim.status === "pending") return claim;
      const answer = await readStatus(claim.reference, claim.providerReference);
      // The Order API must state this very order in the same state, for the amount and currency the exchange names.
      if (!answer || answer.providerReference !== claim.providerReference || answer.status !== claim.status) return null;
      if (answer.amount !== claim.amount || answer.currency !== claim.currency) return null;
      return { ...answer, eventId: claim.eventId };
    },
    // What PAY.'s own library answers to a signed exchange.
    acknowledge: () => ({ status: 200, contentType: "application/json", body: JSON.stringify({ result: true, description: "Processed" }) }),
    async refund(payment) {
      const orderId = payment.providerReference;
      if (!orderId || !orderIdPattern.test(orderId)) throw new Error("PAY. refund: the payment has no PAY. order id");
      const res = await doFetch(`${restUrl}/v1/transactions/${encodeURIComponent(orderId)}/refund`, {
        method: "PATCH",
        headers,
        signal: AbortSignal.timeout(15_000),
        body: JSON.stringify({ amount: { value: payment.amount, currency: payment.currency }, description: "Refund" }),
      });
      if (!res.ok) throw new Error(`PAY. refund answered ${res.status}`);
      const answer = z.object({ amountRefunded: Money.nullable().optional() }).safeParse(parseJson((await res.text()).slice(0, 256_000)));
      const refunded = answer.success ? answer.data.amountRefunded : null;
      // A refund of another amount than the payment's would take back the wrong credits: the operator must look.
      if (refunded && (refunded.value !== payment.amount || refunded.currency !== payment.currency)) throw new Error(`PAY. refunded ${refunded.value} ${refunded.currency}, not the payment's ${payment.amount} ${payment.currency}`);
      return { manual: false };
    },
  };
}
