ALTER TABLE "sites" ADD COLUMN "support_phone" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;