CREATE TABLE "blocks" (
	"blocker_profile_id" integer NOT NULL,
	"blocked_profile_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocks_blocker_profile_id_blocked_profile_id_pk" PRIMARY KEY("blocker_profile_id","blocked_profile_id")
);
--> statement-breakpoint
CREATE TABLE "discovery_decisions" (
	"profile_id" integer NOT NULL,
	"target_profile_id" integer NOT NULL,
	"game" text NOT NULL,
	"decision" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discovery_decisions_profile_id_target_profile_id_game_pk" PRIMARY KEY("profile_id","target_profile_id","game")
);
--> statement-breakpoint
CREATE TABLE "likes" (
	"liker_profile_id" integer NOT NULL,
	"liked_profile_id" integer NOT NULL,
	"is_new" boolean DEFAULT true NOT NULL,
	"source" text DEFAULT 'profile' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "likes_liker_profile_id_liked_profile_id_pk" PRIMARY KEY("liker_profile_id","liked_profile_id")
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "invisible" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "fictional" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deletion_reason" text;--> statement-breakpoint
ALTER TABLE "blocks" ADD CONSTRAINT "blocks_blocker_profile_id_profiles_id_fk" FOREIGN KEY ("blocker_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocks" ADD CONSTRAINT "blocks_blocked_profile_id_profiles_id_fk" FOREIGN KEY ("blocked_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discovery_decisions" ADD CONSTRAINT "discovery_decisions_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discovery_decisions" ADD CONSTRAINT "discovery_decisions_target_profile_id_profiles_id_fk" FOREIGN KEY ("target_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes" ADD CONSTRAINT "likes_liker_profile_id_profiles_id_fk" FOREIGN KEY ("liker_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes" ADD CONSTRAINT "likes_liked_profile_id_profiles_id_fk" FOREIGN KEY ("liked_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blocks_blocked_idx" ON "blocks" USING btree ("blocked_profile_id");--> statement-breakpoint
CREATE INDEX "discovery_decisions_day_idx" ON "discovery_decisions" USING btree ("profile_id","game","created_at");--> statement-breakpoint
CREATE INDEX "likes_liked_idx" ON "likes" USING btree ("liked_profile_id","created_at");