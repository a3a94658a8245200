/**
 * The api test files whose behaviour depends on the database engine: LISTEN/NOTIFY (live events, the push
 * worker), answers fired at once against one database (credit, discount, debit and limit races), EXPLAIN and
 * index checks, two api instances on one database (scale-out), connections the server ends. `npm test` (scripts/test.ts) runs
 * these again on PostgreSQL when DATABASE_URL is set; every file runs on PGlite.
 */
export const engineDependentApiTests = [
  "tests/api/staff-sites.test.ts",
  "tests/api/blocks.test.ts",
  "tests/api/chat-concurrency.test.ts",
  "tests/api/chat.test.ts",
  "tests/api/client-limits.test.ts",
  "tests/api/database-connections.test.ts",
  "tests/api/direct-debit.test.ts",
  "tests/api/discounts.test.ts",
  "tests/api/live-events.test.ts",
  "tests/api/members-search.test.ts",
  "tests/api/query-plans.test.ts",
  "tests/api/payments-ledger.test.ts",
  "tests/api/payments-paynl.test.ts",
  "tests/api/payments.test.ts",
  "tests/api/push-delivery.test.ts",
  "tests/api/staff.test.ts",
  "tests/api/staff-moderation.test.ts",
  "tests/api/staff-login-throttle.test.ts",
  "tests/api/staff-inbox.test.ts",
  "tests/api/throttle.test.ts",
];
