import { Counter, Histogram } from "prom-client";
import { oneOf, processRegistry, requestFamilies } from "#contract/metrics";
import { paymentStatuses, type PaymentStatus } from "#contract/payment-methods";
import type { messageKinds } from "./db/schema/chat";
import type { ProviderId } from "./services/payments/types";
import type { PushOutcome } from "./services/push";

/*
 * The api's process-wide metrics (docs/operations.md, Metrics): what the domain code and the jobs count where the
 * thing happens, and the time of every database statement. The families that read an app's own state (pool, open
 * streams, job backlogs) are per app, in api/http/metrics.ts, which serves both. Every label is typed as its list.
 */

export const apiRegistry = processRegistry();

const registers = [apiRegistry];

/** http_requests_total and http_request_duration_seconds of the api (counted in api/http/metrics.ts). */
export const apiRequests = requestFamilies(apiRegistry);

const dbQueryDuration = new Histogram({
  name: "db_query_duration_seconds",
  help: "Time of each database statement as the api waited for it (queueing for the connection included)",
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers,
});

/** api/db/query-timing.ts reports each statement's time here. */
export function observeDbQuery(seconds: number): void {
  dbQueryDuration.observe(seconds);
}

/** The background jobs (api/jobs/*.ts), by the name their log lines carry. */
export const jobNames = ["push", "settle-payments", "notification-mails", "data-export", "erase-deleted-accounts", "sweep-chat-images", "prune-client-limits", "analytics-messages"] as const;
export type JobName = (typeof jobNames)[number];

const jobRuns = new Counter({ name: "job_runs_total", help: "Passes of each background job, by outcome (ok, failed)", labelNames: ["job", "outcome"], registers });
const jobDuration = new Histogram({
  name: "job_duration_seconds",
  help: "Time of each pass of a background job",
  labelNames: ["job"],
  buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers,
});

/**
 * Runs one pass of a job and counts it: failed when it throws, or when `failed` judges its result so (a pass that
 * handled its items one by one and caught some item's failure). The error still reaches the caller.
 */
export async function recordJobRun<T>(job: JobName, pass: () => Promise<T>, failed: (result: T) => boolean = () => false): Promise<T> {
  const started = performance.now();
  let outcome: "ok" | "failed" = "failed";
  try {
    const result = await pass();
    if (!failed(result)) outcome = "ok";
    return result;
  } finally {
    jobRuns.inc({ job, outcome });
    jobDuration.observe({ job }, (performance.now() - started) / 1000);
  }
}

const signups = new Counter({ name: "signups_total", help: "Accounts created", registers });
const messagesSent = new Counter({ name: "messages_sent_total", help: "Chat messages sent (a repeated send of the same message not counted), by kind", labelNames: ["kind"], registers });
const creditsSpent = new Counter({ name: "credits_spent_total", help: "Credits members spent, by ledger reason", labelNames: ["reason"], registers });
const paymentChanges = new Counter({
  name: "payments_total",
  help: "Payments started (state pending) and payments that reached a later state, by provider and state",
  labelNames: ["provider", "state"],
  registers,
});
const pushes = new Counter({ name: "push_sent_total", help: "Web push deliveries, by outcome (sent, gone, refused, failed)", labelNames: ["outcome"], registers });
const mails = new Counter({ name: "mails_total", help: "Mails sent and failed, and bounces and complaints the mail provider reported", labelNames: ["outcome"], registers });

/** An account was created (its transaction committed). */
export function countSignup(): void {
  signups.inc();
}

type MessageKind = (typeof messageKinds)[number];

/** Ledger reasons of spending (api/domain/chat.ts): what credits pay for. */
export type SpendReason = "message" | "gift" | "photo";

/** A message was sent (its transaction committed), and what it cost. */
export function countMessageSent(kind: MessageKind, credits: number, reason: SpendReason): void {
  messagesSent.inc({ kind });
  if (credits > 0) creditsSpent.inc({ reason }, credits);
}

const providerIds: readonly ProviderId[] = ["sandbox", "verotel", "paynl"];

/** A payment was created (pending) or changed state; the provider comes from a text column, so it is checked against the list. */
export function countPayment(provider: string, state: PaymentStatus): void {
  paymentChanges.inc({ provider: oneOf(provider, providerIds), state: oneOf(state, paymentStatuses) });
}

/** What the push service made of one push (api/jobs/push.ts). */
export function countPush(outcome: PushOutcome["kind"]): void {
  pushes.inc({ outcome });
}

export type MailOutcome = "sent" | "failed" | "bounced" | "complained";

/** A mail left (or failed to), or the provider reported a hard bounce or a complaint about one. */
export function countMail(outcome: MailOutcome): void {
  mails.inc({ outcome });
}
