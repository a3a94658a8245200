CREATE TABLE "discount_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer,
	"code" text NOT NULL,
	"percentage" integer NOT NULL,
	"minimum_order_value" integer DEFAULT 0 NOT NULL,
	"currency" text,
	"country" text,
	"payment_methods" jsonb,
	"validity" text DEFAULT 'once_per_user' NOT NULL,
	"max_uses" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_percentage_check" CHECK ("discount_codes"."percentage" between 1 and 90)
);
--> statement-breakpoint
CREATE TABLE "discount_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"discount_code_id" integer,
	"user_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"once_key" integer,
	"status" text DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_code" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_percentage" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "welcome_discount_hours" integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_uses" ADD CONSTRAINT "discount_uses_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_uses" ADD CONSTRAINT "discount_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_uses" ADD CONSTRAINT "discount_uses_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code_idx" ON "discount_codes" USING btree ("code","site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_uses_payment_idx" ON "discount_uses" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_uses_once_idx" ON "discount_uses" USING btree ("code","once_key");--> statement-breakpoint
CREATE INDEX "discount_uses_user_idx" ON "discount_uses" USING btree ("user_id");