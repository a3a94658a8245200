DROP INDEX "profiles_search_place_age_idx";--> statement-breakpoint
DROP INDEX "profiles_site_newest_idx";--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "fictional_profile_id" integer;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_from_member" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "answered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "profiles_search_gender_newest_idx" ON "profiles" USING btree ("site_id","status","gender","created_at","id");--> statement-breakpoint
CREATE INDEX "profiles_search_country_newest_idx" ON "profiles" USING btree ("site_id","status","country","created_at","id");--> statement-breakpoint
CREATE INDEX "profiles_search_region_newest_idx" ON "profiles" USING btree ("site_id","status","country","region","created_at","id");--> statement-breakpoint
CREATE INDEX "profiles_name_search_idx" ON "profiles" USING btree (lower("name") text_pattern_ops,"user_id");--> statement-breakpoint
CREATE INDEX "users_email_search_idx" ON "users" USING btree (lower("email") text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "conversations_inbox_idx" ON "conversations" USING btree ("last_from_member","answered","last_message_at") WHERE "conversations"."fictional_profile_id" is not null;--> statement-breakpoint
CREATE INDEX "conversations_inbox_stopped_idx" ON "conversations" USING btree ("last_message_at") WHERE "conversations"."fictional_profile_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_search_reference_idx" ON "payments" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "payments_search_provider_reference_idx" ON "payments" USING btree ("provider_reference");--> statement-breakpoint
CREATE INDEX "profiles_site_newest_idx" ON "profiles" USING btree ("site_id","status","created_at","id");
