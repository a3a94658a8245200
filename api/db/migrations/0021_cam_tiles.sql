CREATE TABLE "cam_clicks" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "cam_clicks_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "cam_tiles" jsonb;--> statement-breakpoint
ALTER TABLE "cam_clicks" ADD CONSTRAINT "cam_clicks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;