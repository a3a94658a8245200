import { createHash, timingSafeEqual } from "node:crypto";
import type { PaymentMethodId } from "#contract/payments";
import { decimalToMinor, minorToDecimal, type CreatePaymentInput, type CreatedPayment, type NotificationInput, type PaymentProvider, type ProviderNotification, type ProviderStatus } from "./types";

/**
 * Verotel FlexPay (docs/decisions/008-payment-providers.md): a signed "startorder" purchase URL sends
 * the payer to Verotel's order page; Verotel calls our postback URL (GET, signed) for an approved sale
 * and expects the text "OK"; the status service answers a sale's state. Signature (protocol 4):
 * lowercase hex SHA-256 of `secret:key1=value1:key2=value2...`, keys sorted, the signature itself left
 * out (for the purchase URL only the documented parameters are signed).
 *
 * The same key signs our purchase and status URLs, and the payer holds the purchase URL (and the signed
 * parameters Verotel appends to the success URL): a valid signature proves only that the parameters
 * come from Verotel or from us. So a postback counts only with Verotel's sale and transaction ids and
 * none of our order's own parameters, and it pays only once the status service, asked server to
 * server, confirms that sale with the same reference, amount and currency (docs/security.md).
 */
export type VerotelOptions = { shopId: string; signatureKey: string; baseUrl: string; fetch?: typeof fetch };

export const verotelProtocolVersion = "4";

/** Our method ids as FlexPay's paymentMethod values. */
const flexpayMethods: Partial<Record<PaymentMethodId, string>> = { cards: "CC", sdd: "DDEU" };

/** The parameters FlexPay signs in a startorder URL (others, like email, are sent but not signed). */
const signedUrlParams = /^(version|shopID|price(Amount|Currency)|paymentMethod|description|referenceID|saleID|custom[123]|subscriptionType|period|name|trialAmount|trialPeriod|cancelDiscountPercentage|type|successURL|declineURL|precedingSaleID|upgradeOption|mcc|subCreditorName|subCreditorId|subCreditorCountry)$/;

export function flexpaySignature(secret: string, params: Record<string, string>): string {
  const parts = Object.keys(params)
    .filter((key) => key !== "signature")
    .sort()
    .map((key) => `${key}=${params[key]}`);
  return createHash("sha256").update([secret, ...parts].join(":")).digest("hex");
}

/** The signature of a URL we send to Verotel: only its documented, non-empty parameters are signed. */
export function flexpayUrlSignature(secret: string, params: Record<string, string>): string {
  return flexpaySignature(secret, Object.fromEntries(Object.entries(params).filter(([key, value]) => signedUrlParams.test(key) && value !== "")));
}

/** Parameters only our startorder URL carries (our return URLs): a set with any of them is our own order, never a postback. */
const orderOnlyParams = ["successURL", "declineURL", "backURL"] as const;
/** Verotel's ids of a sale and of its transaction (numbers in its docs; letters allowed, bounded). */
const verotelId = /^[0-9A-Za-z_-]{1,40}$/;

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Only plain string values: a repeated parameter (a list) or an object makes the postback unreadable. */
function stringParams(query: Record<string, unknown>): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (typeof value !== "string" || value.length > 1000 || /[\u0000-\u001f]/.test(value)) return null;
    out[key] = value;
  }
  return out;
}

/** The status service's `key: value` lines (a value may hold colons: the first one splits). */
function statusFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return fields;
}

export function createVerotelProvider(options: VerotelOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");

  function signedUrl(path: string, params: Record<string, string>): string {
    const all: Record<string, string> = { ...params, version: verotelProtocolVersion, shopID: options.shopId };
    const query = new URLSearchParams(Object.entries(all).filter(([, value]) => value !== "").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    query.set("signature", flexpayUrlSignature(options.signatureKey, all));
    return `${base}${path}?${query.toString()}`;
  }

  /** The status service's answer about our reference (null: not found, or about another sale or shop). */
  async function readStatus(reference: string): Promise<ProviderNotification | null> {
    const res = await doFetch(signedUrl("/salestatus", { referenceID: reference }), { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return null;
    const fields = statusFields((await res.text()).slice(0, 64_000));
    if (fields.get("response") !== "FOUND") return null;
    // An answer must be about the sale we asked for, at our shop.
    if (fields.get("referenceID") !== reference || (fields.has("shopID") && fields.get("shopID") !== options.shopId)) return null;
    const result = fields.get("saleResult");
    const status: ProviderStatus = result === "APPROVED" ? "paid" : result === "DECLINED" || result === "ERROR" ? "failed" : "pending";
    const saleId = fields.get("saleID");
    const currency = fields.get("priceCurrency");
    return {
      reference,
      status,
      amount: decimalToMinor(fields.get("priceAmount")),
      currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : null,
      eventId: "status-service",
      providerReference: saleId && verotelId.test(saleId) ? saleId : undefined,
    };
  }

  return {
    id: "verotel",
    methods: ["cards", "sdd"],
    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const params: Record<string, string> = {
        type: "purchase",
        priceAmount: minorToDecimal(input.amount),
        priceCurrency: input.currency,
        description: input.description.slice(0, 100),
        referenceID: input.reference,
        successURL: input.returnUrl,
        declineURL: input.returnUrl,
        paymentMethod: flexpayMethods[input.method] ?? "",
      };
      return { redirectUrl: signedUrl("/startorder", params) };
    },
    readStatus,
    verifyNotification(input: NotificationInput): ProviderNotification | null {
      const params = stringParams(input.query);
      if (!params?.signature || !/^[0-9a-fA-F]{64}$/.test(params.signature)) return null;
      const { provider: _ours, ...theirs } = params;
      if (!sameHex(params.signature, flexpaySignature(options.signatureKey, theirs))) return null;
      if (theirs.shopID !== options.shopId || !theirs.referenceID) return null;
      // Our own signed URLs use the same key: only Verotel's sale and transaction ids, and none of our order's return URLs, make a postback.
      if (!verotelId.test(theirs.saleID ?? "") || !verotelId.test(theirs.transactionID ?? "")) return null;
      if (orderOnlyParams.some((key) => Object.hasOwn(theirs, key))) return null;
      if (theirs.type !== "purchase") return null;
      const amount = decimalToMinor(theirs.priceAmount);
      if (amount === null || !/^[A-Z]{3}$/.test(theirs.priceCurrency ?? "")) return null;
      return {
        reference: theirs.referenceID,
        // FlexPay posts back approved sales without an event; a later event (a credit, a chargeback) pays nothing.
        status: theirs.event === undefined ? "paid" : "pending",
        amount,
        currency: theirs.priceCurrency!,
        eventId: theirs.transactionID!,
        providerReference: theirs.saleID,
      };
    },
    async confirm(claim: ProviderNotification): Promise<ProviderNotification | null> {
      if (claim.status !== "paid") return claim;
      const answer = await readStatus(claim.reference);
      // The status service must know this very sale as approved, for the amount and currency the postback names.
      if (!answer || answer.status !== "paid" || answer.providerReference !== claim.providerReference) return null;
      if (answer.amount !== claim.amount || answer.currency !== claim.currency) return null;
      return { ...answer, eventId: claim.eventId };
    },
    acknowledge: () => ({ status: 200, contentType: "text/plain", body: "OK" }),
    async refund() {
      // FlexPay has no refund call: the operator refunds the sale in Verotel's Control Center.
      return { manual: true };
    },
  };
}
