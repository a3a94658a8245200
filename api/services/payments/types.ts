import type { PaymentMethodId } from "#contract/payments";

/** What a provider can say about a payment. */
export type ProviderStatus = "pending" | "paid" | "failed" | "cancelled" | "expired";
export type ProviderId = "sandbox" | "verotel" | "paynl";

/** A verified notification (webhook, postback) or a server-to-server answer, in our words. */
export type ProviderNotification = {
  /** Our reference (payments.reference) the provider echoes back. */
  reference: string;
  status: ProviderStatus;
  /** What the provider says it charged, in minor units; null when it does not say. */
  amount: number | null;
  currency: string | null;
  /** The provider's id of this notification or transaction (for the audit trail). */
  eventId: string | null;
  /** The provider's id of the sale. */
  providerReference?: string;
  /** A card the provider can charge again (one-click), when the payer allowed it. */
  storedCard?: string;
};

export type CreatePaymentInput = {
  paymentId: number;
  reference: string;
  amount: number;
  currency: string;
  method: PaymentMethodId;
  description: string;
  /** Our payment result page (absolute URL), where the provider sends the payer back. */
  returnUrl: string;
};

/**
 * Either the payer goes to the provider's checkout (with the provider's id of the order when it gives one at once,
 * kept as payments.provider_reference), or (a stored card) the provider answered at once.
 */
export type CreatedPayment = { redirectUrl: string; providerReference?: string } | { charged: ProviderNotification };

export type NotificationInput = { query: Record<string, unknown>; rawBody: string; headers: Record<string, string | undefined> };

/** The reply a provider expects to a notification it sent (Verotel wants the text "OK"). */
export type NotificationReply = { status: number; contentType: string; body: string };

/** docs/decisions/008-payment-providers.md: every provider does these things. */
export interface PaymentProvider {
  readonly id: ProviderId;
  /** The methods this provider can take. */
  readonly methods: readonly PaymentMethodId[];
  createPayment(input: CreatePaymentInput & { storedCard?: string | null }): Promise<CreatedPayment>;
  /**
   * Asks the provider for a payment's state (server to server): its answer, with the amount and currency
   * it states (null when it does not state them); null when it does not know the payment. A provider that looks
   * orders up by its own id (PAY.) gets the one it gave (payments.provider_reference).
   */
  readStatus(reference: string, providerReference?: string | null): Promise<ProviderNotification | null>;
  /**
   * Authenticates a notification: what it claims if its signature holds and it carries what only the
   * provider produces, else null (nothing else is read from a request that fails this). A claim is no
   * proof of payment on its own: `confirm` decides.
   */
  verifyNotification(input: NotificationInput): ProviderNotification | null;
  /**
   * What the provider's own server confirms of an authenticated claim (Verotel: its status service,
   * with the same sale, amount and currency); null: not confirmed, and the payment stays pending.
   */
  confirm(claim: ProviderNotification): Promise<ProviderNotification | null>;
  /** The answer the provider expects once we stored the notification. */
  acknowledge(): NotificationReply;
  /** Gives `amount` back (the whole payment or a part); `manual` when the operator must do it in the provider's own dashboard. */
  refund(payment: { reference: string; providerReference: string | null; amount: number; currency: string }): Promise<{ manual: boolean }>;
}

/** "12.34" from 1234 minor units: integer arithmetic only (all supported currencies have 2 decimals). */
export function minorToDecimal(amount: number): string {
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(amount);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** 1234 from "12.34" (or "12.3", "12"); null when it is no plain amount. */
export function decimalToMinor(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}
