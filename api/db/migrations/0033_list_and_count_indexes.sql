CREATE INDEX "profiles_site_run_idx" ON "profiles" USING btree ("id") WHERE "profiles"."fictional";--> statement-breakpoint
CREATE INDEX "likes_received_idx" ON "likes" USING btree ("liked_profile_id","is_new","created_at");--> statement-breakpoint
CREATE INDEX "payments_package_idx" ON "payments" USING btree ("package_id");
