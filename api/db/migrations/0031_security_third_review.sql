CREATE TABLE "staff_form_keys" (
	"staff_user_id" integer NOT NULL,
	"form_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "staff_form_keys_key_idx" ON "staff_form_keys" USING btree ("staff_user_id","form_key");