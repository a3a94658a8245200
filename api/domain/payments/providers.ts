import { createHmac } from "node:crypto";
import type { Logger } from "pino";
import { paymentMethodIds } from "#contract/payments";
import type { ApiConfig } from "../../config";
import type { Database } from "../../db/client";
import { createPaymentProviders, parsePaymentRoutes, type PaymentProviders } from "../../services/payments";
import { receiveNotification } from "./payments";

/** The payment providers from the configuration (docs/payments.md); the sandbox notifies this api in-process. */
export function configuredPaymentProviders(database: Database, config: ApiConfig, logger: Logger): PaymentProviders {
  const sandboxSecret = config.SANDBOX_WEBHOOK_SECRET ?? createHmac("sha256", config.SESSION_SECRET).update("sandbox-webhook").digest("base64url");
  const verotel =
    config.VEROTEL_SHOP_ID && config.VEROTEL_SIGNATURE_KEY ? { shopId: config.VEROTEL_SHOP_ID, signatureKey: config.VEROTEL_SIGNATURE_KEY, baseUrl: config.VEROTEL_URL } : null;
  const routes = parsePaymentRoutes(config.PAYMENT_ROUTES, paymentMethodIds);
  const paynl =
    config.PAYNL_SERVICE_ID && config.PAYNL_TOKEN_CODE && config.PAYNL_API_TOKEN
      ? {
          serviceId: config.PAYNL_SERVICE_ID,
          tokenCode: config.PAYNL_TOKEN_CODE,
          apiToken: config.PAYNL_API_TOKEN,
          serviceSecret: config.PAYNL_SERVICE_SECRET ?? null,
          apiUrl: config.PAYNL_API_URL,
          restUrl: config.PAYNL_REST_URL,
          testMode: config.PAYNL_TEST_MODE === "true",
        }
      : null;
  // loadApiConfig has refused a route without its provider's keys, and in production mode a sandbox route and PAY.'s test mode.
  const production = config.APP_MODE === "production";
  const providers: PaymentProviders = createPaymentProviders({
    routes,
    // Only a demo has the sandbox (loadApiConfig already refuses PAYMENT_SANDBOX=true in production mode).
    sandboxEnabled: !production && config.PAYMENT_SANDBOX !== "false",
    verotel,
    paynl,
    sandbox: {
      secret: sandboxSecret,
      deliveryDelaysMs: config.SANDBOX_NOTIFY_DELAYS_MS,
      pendingSettleMs: config.SANDBOX_PENDING_SETTLE_MS,
      deliver: async (rawBody, signature) => {
        const ok = await receiveNotification(database.db, providers.sandbox, { query: {}, rawBody, headers: { "x-sandbox-signature": signature } });
        if (!ok) logger.warn("sandbox notification refused");
      },
      onError: (error) => logger.warn({ err: error }, "sandbox notification failed"),
    },
  });
  return providers;
}
