/**
 * Operator refund (docs/payments.md): `npm run refund -- <payment_id>`. Within the site's refund_days the
 * provider gives the money back and the credits are taken back through the ledger; credits already spent
 * are not (the balance never goes below zero) and the shortfall is printed and kept on the payment.
 * On the embedded PGlite stop the api first (one process per database); on PostgreSQL run it any time.
 */
import { loadApiConfig } from "../api/config";
import { openDatabase } from "../api/db/client";
import { createLogger } from "../api/logger";
import { configuredPaymentProviders } from "../api/domain/payments/providers";
import { refundPayment } from "../api/domain/payments/payments";

const messages = {
  not_found: "No payment with this id.",
  not_paid: "This payment is not paid (pending, failed, cancelled, expired or already refunded): nothing to refund.",
  window_passed: "The refund period of this site (refund_days) has passed for this payment.",
  bad_amount: "A refund can give back at most what was paid.",
} as const;

async function main(): Promise<number> {
  const arg = process.argv.slice(2).find((a) => a !== "--");
  if (!arg || !/^\d{1,10}$/.test(arg) || Number(arg) > 2_147_483_647) {
    console.error("usage: npm run refund -- <payment_id>");
    return 2;
  }
  const config = loadApiConfig();
  const logger = createLogger("api", config.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const outcome = await refundPayment(database.db, configuredPaymentProviders(database, config, logger), Number(arg));
    if (outcome.kind === "provider_failed") {
      console.error(`The provider did not refund this payment (${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}): it is paid again; try again later.`);
      return 1;
    }
    if (outcome.kind !== "refunded") {
      console.error(messages[outcome.kind]);
      return 1;
    }
    console.log(`Payment ${arg} refunded: ${outcome.takenBack} credits taken back${outcome.shortfall ? `, ${outcome.shortfall} already spent (not taken back)` : ""}.`);
    if (outcome.manual) console.log("This provider refunds in its own dashboard: refund the sale there too (docs/payments.md).");
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
