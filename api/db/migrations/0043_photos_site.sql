-- A photo's site is its profile's (a profile never changes site): filled from the profiles, then required.
ALTER TABLE "photos" ADD COLUMN "site_id" integer;--> statement-breakpoint
UPDATE "photos" SET "site_id" = "profiles"."site_id" FROM "profiles" WHERE "profiles"."id" = "photos"."profile_id";--> statement-breakpoint
ALTER TABLE "photos" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photos_site_review_queue_idx" ON "photos" USING btree ("site_id","created_at") WHERE "photos"."reviewed_at" is null;--> statement-breakpoint
-- Statistics of the filled column for the planner (a VACUUM after the upgrade settles the rest: docs/operations.md, Upgrades).
ANALYZE "photos";
