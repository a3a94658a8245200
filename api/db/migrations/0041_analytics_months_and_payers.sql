CREATE TABLE "analytics_funnel_months" (
	"site_id" integer NOT NULL,
	"month" date NOT NULL,
	"network" text DEFAULT '' NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	"sub1" text DEFAULT '' NOT NULL,
	"sub2" text DEFAULT '' NOT NULL,
	"sub3" text DEFAULT '' NOT NULL,
	"lander" text DEFAULT '' NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"first_messages" integer DEFAULT 0 NOT NULL,
	"first_purchases" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_funnel_months_site_id_month_network_ref_sub1_sub2_sub3_lander_pk" PRIMARY KEY("site_id","month","network","ref","sub1","sub2","sub3","lander")
);
--> statement-breakpoint
ALTER TABLE "analytics_funnel_months" ADD CONSTRAINT "analytics_funnel_months_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_funnel_months_month_idx" ON "analytics_funnel_months" USING btree ("month");--> statement-breakpoint
-- What there is already: the funnel's months from its days (later changes follow by the trigger, made in the
-- migration after this one).
INSERT INTO "analytics_funnel_months" (site_id, month, network, ref, sub1, sub2, sub3, lander, visits, signups, activations, first_messages, first_purchases)
SELECT site_id, date_trunc('month', day)::date, network, ref, sub1, sub2, sub3, lander, sum(visits), sum(signups), sum(activations), sum(first_messages), sum(first_purchases)
  FROM "analytics_funnel_days" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
