ALTER TABLE "credit_packages" ADD COLUMN "payments_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The payments there are, counted once; startPayment counts each new one in its own transaction from here on.
UPDATE "credit_packages" cp SET "payments_count" = c.n FROM (SELECT "package_id", count(*)::int AS n FROM "payments" WHERE "package_id" IS NOT NULL GROUP BY "package_id") c WHERE cp."id" = c."package_id";
