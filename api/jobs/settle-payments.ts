import type { Logger } from "pino";
import type { Db } from "../db/client";
import type { PaymentProviders } from "../services/payments";
import { settleAbandonedPayments } from "../domain/payments/payments";

/** Runs the settle pass (docs/payments.md) at start and every minute; the timer does not keep the process alive. */
export function startSettlePaymentsJob(db: Db, providers: PaymentProviders, options: { logger: Logger; intervalMs?: number }): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const done = await settleAbandonedPayments(db, providers);
      if (done.expired || done.renotified) options.logger.info({ job: "settle-payments", ...done }, "pending payments settled");
    } catch (error) {
      options.logger.error({ job: "settle-payments", err: error }, "settle payments job failed");
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(() => void run(), options.intervalMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
