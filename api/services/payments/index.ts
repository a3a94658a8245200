import type { PaymentMethodId } from "#contract/payments";
import { createSandboxProvider, type SandboxOptions } from "./sandbox";
import { createVerotelProvider, type VerotelOptions } from "./verotel";
import { createPaynlProvider, type PaynlOptions } from "./paynl";
import type { PaymentProvider, ProviderId } from "./types";

export type PaymentProviders = {
  sandbox: ReturnType<typeof createSandboxProvider>;
  /** Whether the sandbox takes payments (never in production mode: its checkout lets the payer choose "paid"). */
  sandboxEnabled: boolean;
  byId(id: string): PaymentProvider | null;
  /** The provider that takes a method: PAYMENT_ROUTES names it, else the sandbox when enabled; null: the method is not offered. */
  forMethod(method: PaymentMethodId): PaymentProvider | null;
};

export type ProvidersConfig = {
  sandbox: SandboxOptions;
  verotel: VerotelOptions | null;
  /** PAY. (pay.nl): iDEAL, Bancontact, eps, BLIK, Przelewy24, paysafecard, PayPal, Apple Pay and SEPA transfer. */
  paynl?: PaynlOptions | null;
  /** method -> provider, from PAYMENT_ROUTES ("cards=verotel,sdd=verotel,ideal=paynl"). */
  routes: Partial<Record<PaymentMethodId, ProviderId>>;
  /** Default true; false in production mode, or with PAYMENT_SANDBOX=false (api/domain/payments/providers.ts). */
  sandboxEnabled?: boolean;
};

export function createPaymentProviders(config: ProvidersConfig): PaymentProviders {
  const sandbox = createSandboxProvider(config.sandbox);
  const verotel = config.verotel ? createVerotelProvider(config.verotel) : null;
  const paynl = config.paynl ? createPaynlProvider(config.paynl) : null;
  const sandboxEnabled = config.sandboxEnabled ?? true;
  const all: Record<string, PaymentProvider | null> = { sandbox: sandboxEnabled ? sandbox : null, verotel, paynl };
  return {
    sandbox,
    sandboxEnabled,
    byId: (id) => (Object.hasOwn(all, id) ? (all[id] ?? null) : null),
    forMethod(method) {
      const routed = config.routes[method];
      const provider = routed ? all[routed] : null;
      if (provider && provider.methods.includes(method)) return provider;
      return sandboxEnabled ? sandbox : null;
    },
  };
}

const routedProviders: readonly ProviderId[] = ["sandbox", "verotel", "paynl"];

/** Parses PAYMENT_ROUTES; throws one clear line on a method or provider that does not exist. */
export function parsePaymentRoutes(value: string | undefined, methods: readonly string[]): Partial<Record<PaymentMethodId, ProviderId>> {
  const routes: Partial<Record<PaymentMethodId, ProviderId>> = {};
  for (const pair of (value ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const [method, provider] = pair.split("=").map((p) => p.trim());
    if (!method || !methods.includes(method)) throw new Error(`PAYMENT_ROUTES: unknown payment method "${method}"`);
    if (!routedProviders.includes(provider as ProviderId)) throw new Error(`PAYMENT_ROUTES: unknown provider "${provider}"`);
    routes[method as PaymentMethodId] = provider as ProviderId;
  }
  return routes;
}
