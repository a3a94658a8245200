CREATE TABLE "attribution_visits" (
	"day" date NOT NULL,
	"site_id" integer NOT NULL,
	"network" text DEFAULT '' NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	"sub1" text DEFAULT '' NOT NULL,
	"sub2" text DEFAULT '' NOT NULL,
	"sub3" text DEFAULT '' NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attribution_visits_day_site_id_network_ref_sub1_sub2_sub3_pk" PRIMARY KEY("day","site_id","network","ref","sub1","sub2","sub3")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "network" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sub1" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sub2" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sub3" text;--> statement-breakpoint
ALTER TABLE "attribution_visits" ADD CONSTRAINT "attribution_visits_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;