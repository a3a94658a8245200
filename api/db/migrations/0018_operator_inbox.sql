CREATE TABLE "operator_claims" (
	"conversation_id" integer PRIMARY KEY NOT NULL,
	"staff_user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_notes" (
	"member_profile_id" integer NOT NULL,
	"fictional_profile_id" integer NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_replies" (
	"message_id" integer PRIMARY KEY NOT NULL,
	"staff_user_id" integer NOT NULL,
	"conversation_id" integer NOT NULL,
	"waited_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_claims" ADD CONSTRAINT "operator_claims_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_replies" ADD CONSTRAINT "operator_replies_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_notes_pair_idx" ON "operator_notes" USING btree ("member_profile_id","fictional_profile_id");--> statement-breakpoint
CREATE INDEX "operator_replies_staff_idx" ON "operator_replies" USING btree ("staff_user_id","created_at");