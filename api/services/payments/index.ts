import type { PaymentMethodId } from "#contract/payments";
import { createSandboxProvider, type SandboxOptions } from "./sandbox";
import { createVerotelProvider, type VerotelOptions } from "./verotel";
import type { PaymentProvider, ProviderId } from "./types";

export type PaymentProviders = {
  sandbox: ReturnType<typeof createSandboxProvider>;
  byId(id: string): PaymentProvider | null;
  /** The provider that takes a method: PAYMENT_ROUTES names it, else the sandbox. */
  forMethod(method: PaymentMethodId): PaymentProvider;
};

export type ProvidersConfig = {
  sandbox: SandboxOptions;
  verotel: VerotelOptions | null;
  /** method -> provider, from PAYMENT_ROUTES ("cards=verotel,sdd=verotel"). */
  routes: Partial<Record<PaymentMethodId, ProviderId>>;
};

export function createPaymentProviders(config: ProvidersConfig): PaymentProviders {
  const sandbox = createSandboxProvider(config.sandbox);
  const verotel = config.verotel ? createVerotelProvider(config.verotel) : null;
  const all: Record<string, PaymentProvider | null> = { sandbox, verotel };
  return {
    sandbox,
    byId: (id) => (Object.hasOwn(all, id) ? (all[id] ?? null) : null),
    forMethod(method) {
      const routed = config.routes[method];
      const provider = routed ? all[routed] : null;
      return provider && provider.methods.includes(method) ? provider : sandbox;
    },
  };
}

/** Parses PAYMENT_ROUTES; throws one clear line on a method or provider that does not exist. */
export function parsePaymentRoutes(value: string | undefined, methods: readonly string[]): Partial<Record<PaymentMethodId, ProviderId>> {
  const routes: Partial<Record<PaymentMethodId, ProviderId>> = {};
  for (const pair of (value ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const [method, provider] = pair.split("=").map((p) => p.trim());
    if (!method || !methods.includes(method)) throw new Error(`PAYMENT_ROUTES: unknown payment method "${method}"`);
    if (provider !== "sandbox" && provider !== "verotel") throw new Error(`PAYMENT_ROUTES: unknown provider "${provider}"`);
    routes[method as PaymentMethodId] = provider;
  }
  return routes;
}
