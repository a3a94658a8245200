CREATE TABLE "debit_mandates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"account_holder" text NOT NULL,
	"iban_encrypted" text NOT NULL,
	"iban_masked" text NOT NULL,
	"street" text NOT NULL,
	"house_number" text NOT NULL,
	"zip" text NOT NULL,
	"city" text NOT NULL,
	"phone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "debit_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"discount_code" text,
	"details" jsonb NOT NULL,
	"code_hash" text NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"codes_sent" integer DEFAULT 1 NOT NULL,
	"wrong_tries" integer DEFAULT 0 NOT NULL,
	"confirmed_at" timestamp with time zone,
	"payment_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "mandate_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "debit_blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "debit_mandates" ADD CONSTRAINT "debit_mandates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debit_requests" ADD CONSTRAINT "debit_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debit_requests" ADD CONSTRAINT "debit_requests_package_id_credit_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."credit_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debit_requests" ADD CONSTRAINT "debit_requests_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "debit_mandates_user_idx" ON "debit_mandates" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "debit_requests_user_idx" ON "debit_requests" USING btree ("user_id","created_at");