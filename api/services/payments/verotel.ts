import { createHash, timingSafeEqual } from "node:crypto";
import type { PaymentMethodId } from "#contract/payments";
import { decimalToMinor, minorToDecimal, type CreatePaymentInput, type CreatedPayment, type NotificationInput, type PaymentProvider, type ProviderNotification, type ProviderStatus } from "./types";

/**
 * Verotel FlexPay (docs/decisions/008-payment-providers.md): a signed "startorder" purchase URL sends
 * the payer to Verotel's order page; Verotel calls our postback URL (GET, signed) for an approved sale
 * and expects the text "OK"; the status service answers a sale's state. Signature (protocol 4):
 * lowercase hex SHA-256 of `secret:key1=value1:key2=value2...`, keys sorted, the signature itself left
 * out (for the purchase URL only the documented parameters are signed).
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

export function createVerotelProvider(options: VerotelOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");

  function signedUrl(path: string, params: Record<string, string>): string {
    const all: Record<string, string> = { ...params, version: verotelProtocolVersion, shopID: options.shopId };
    const signed = Object.fromEntries(Object.entries(all).filter(([key, value]) => signedUrlParams.test(key) && value !== ""));
    const query = new URLSearchParams(Object.entries(all).filter(([, value]) => value !== "").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    query.set("signature", flexpaySignature(options.signatureKey, signed));
    return `${base}${path}?${query.toString()}`;
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
    async readStatus(reference: string): Promise<ProviderStatus | null> {
      const res = await doFetch(signedUrl("/salestatus", { referenceID: reference }), { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) return null;
      // The status service answers "key: value" lines.
      const fields = new Map((await res.text()).split(/\r?\n/).map((line) => line.split(/:\s*/, 2) as [string, string]).filter(([k, v]) => k && v !== undefined));
      if (fields.get("response") !== "FOUND") return null;
      const result = fields.get("saleResult");
      if (result === "APPROVED") return "paid";
      if (result === "DECLINED" || result === "ERROR") return "failed";
      return "pending";
    },
    verifyNotification(input: NotificationInput): ProviderNotification | null {
      const params = stringParams(input.query);
      if (!params?.signature || !/^[0-9a-fA-F]{64}$/.test(params.signature)) return null;
      const { provider: _ours, ...theirs } = params;
      if (!sameHex(params.signature, flexpaySignature(options.signatureKey, theirs))) return null;
      if (theirs.shopID !== options.shopId || !theirs.referenceID) return null;
      // FlexPay posts back approved sales only (type=purchase); a declined or abandoned order has no postback.
      if (theirs.type !== "purchase") return null;
      return {
        reference: theirs.referenceID,
        status: "paid",
        amount: decimalToMinor(theirs.priceAmount),
        currency: theirs.priceCurrency ?? null,
        eventId: theirs.transactionID ?? theirs.saleID ?? null,
        providerReference: theirs.saleID,
      };
    },
    acknowledge: () => ({ status: 200, contentType: "text/plain", body: "OK" }),
    async refund() {
      // FlexPay has no refund call: the operator refunds the sale in Verotel's Control Center.
      return { manual: true };
    },
  };
}
