import { createHmac, timingSafeEqual } from "node:crypto";
import { paymentMethodIds, SandboxNotification, type PaymentMethodId } from "#contract/payments";
import type { CreatePaymentInput, CreatedPayment, NotificationInput, PaymentProvider, ProviderNotification, ProviderStatus } from "./types";

export const sandboxSignatureHeader = "x-sandbox-signature";
/** Stored test cards: one that charges again fine, one that is declined the next time (repeat order). */
export const sandboxCardTokens = { ok: "sandbox_card_ok", declines_later: "sandbox_card_declines_later" } as const;

export type SandboxOptions = {
  secret: string;
  /** Delays (ms) of the deliveries of each notification: "sometimes late, sometimes more than once". */
  deliveryDelaysMs: number[];
  /** A pending payment settles as paid after this long (a bank transfer that arrives). */
  pendingSettleMs: number;
  /** Hands a signed notification to our webhook, as the provider's HTTP call would. */
  deliver: (rawBody: string, signature: string) => Promise<void>;
  onError: (error: unknown) => void;
};

export function signSandboxBody(secret: string, rawBody: string, at = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac("sha256", secret).update(`${at}.${rawBody}`).digest("hex");
  return `t=${at},v1=${mac}`;
}

function validSignature(secret: string, rawBody: string, header: string | undefined): boolean {
  const match = header ? /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header) : null;
  if (!match) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${match[1]}.${rawBody}`).digest("hex"));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The offline test provider: its hosted checkout is a page of this app (/sandbox-checkout/{reference}),
 * where the payer picks the outcome. Its notifications are signed like a real provider's and delivered
 * in-process by a timer, possibly late and more than once (deliveryDelaysMs).
 */
export function createSandboxProvider(options: SandboxOptions): PaymentProvider & { notifyOutcome(n: { reference: string; status: ProviderStatus; amount: number; currency: string; storedCard?: string }): void } {
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  function schedule(delayMs: number, body: string) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      options.deliver(body, signSandboxBody(options.secret, body)).catch(options.onError);
    }, delayMs);
    timer.unref();
    timers.add(timer);
  }

  function notifyOutcome(n: { reference: string; status: ProviderStatus; amount: number; currency: string; storedCard?: string }) {
    const body = JSON.stringify({ event_id: `evt_${Date.now().toString(36)}_${++counter}`, reference: n.reference, status: n.status, amount: n.amount, currency: n.currency, ...(n.storedCard ? { card_token: n.storedCard } : {}) });
    for (const delay of options.deliveryDelaysMs) schedule(delay, body);
    if (n.status === "pending") {
      const settled = JSON.stringify({ event_id: `evt_${Date.now().toString(36)}_${++counter}`, reference: n.reference, status: "paid", amount: n.amount, currency: n.currency });
      for (const delay of options.deliveryDelaysMs) schedule(options.pendingSettleMs + delay, settled);
    }
  }

  return {
    id: "sandbox",
    methods: paymentMethodIds,
    notifyOutcome,
    async createPayment(input: CreatePaymentInput & { storedCard?: string | null }): Promise<CreatedPayment> {
      if (!input.storedCard) return { redirectUrl: `/sandbox-checkout/${input.reference}` };
      // A stored card is charged at once, and the sandbox notifies as well (a duplicate our webhook ignores).
      const status: ProviderStatus = input.storedCard === sandboxCardTokens.ok ? "paid" : "failed";
      notifyOutcome({ reference: input.reference, status, amount: input.amount, currency: input.currency });
      return { charged: { reference: input.reference, status, amount: input.amount, currency: input.currency, eventId: `charge_${input.paymentId}` } };
    },
    async readStatus() {
      // The sandbox keeps no state of its own beyond what it notified.
      return null;
    },
    // Its notifications come from this process, signed with a key that signs nothing a payer sees: the claim is the provider's word.
    confirm: async (claim) => claim,
    verifyNotification(input: NotificationInput): ProviderNotification | null {
      if (!validSignature(options.secret, input.rawBody, input.headers[sandboxSignatureHeader])) return null;
      let json: unknown;
      try {
        json = JSON.parse(input.rawBody);
      } catch {
        return null;
      }
      const parsed = SandboxNotification.safeParse(json);
      if (!parsed.success) return null;
      const n = parsed.data;
      return { reference: n.reference, status: n.status, amount: n.amount, currency: n.currency, eventId: n.event_id, storedCard: n.card_token };
    },
    acknowledge: () => ({ status: 200, contentType: "application/json", body: JSON.stringify({ received: true }) }),
    async refund() {
      return { manual: false };
    },
  };
}

export const sandboxMethods: readonly PaymentMethodId[] = paymentMethodIds;
