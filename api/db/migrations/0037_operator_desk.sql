CREATE TABLE "inbox_wait_thresholds" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"warn_minutes" integer NOT NULL,
	"late_minutes" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_member_notes" (
	"member_profile_id" integer PRIMARY KEY NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"fictional_profile_id" integer,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "saved_replies_site_idx" ON "saved_replies" USING btree ("site_id","fictional_profile_id");--> statement-breakpoint
CREATE INDEX "operator_claims_staff_idx" ON "operator_claims" USING btree ("staff_user_id");--> statement-breakpoint
CREATE INDEX "conversations_inbox_profile_idx" ON "conversations" USING btree ("fictional_profile_id","last_from_member","answered","last_message_at") WHERE "conversations"."fictional_profile_id" is not null;--> statement-breakpoint
-- The notes kept per member and site-run profile become one note per member (seen on all the member's conversations):
-- a member's pair notes joined, the oldest first. operator_notes holds only what operators typed (a row per pair noted).
INSERT INTO "operator_member_notes" ("member_profile_id", "body", "updated_by", "updated_at")
SELECT "member_profile_id", string_agg("body", E'\n\n' ORDER BY "updated_at"), (array_agg("updated_by" ORDER BY "updated_at" DESC))[1], max("updated_at")
FROM "operator_notes" WHERE "body" <> '' GROUP BY "member_profile_id";
--> statement-breakpoint
DROP TABLE "operator_notes" CASCADE;
