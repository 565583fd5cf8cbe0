CREATE TABLE "ctrader_authorizations" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"returned_at" timestamp with time zone,
	"grant_ciphertext" text,
	"grant_key_id" text,
	"accounts" jsonb
);
--> statement-breakpoint
CREATE TABLE "platform_unlinks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"platform_account_id" text NOT NULL,
	"closed_positions" boolean NOT NULL,
	"open_positions" integer NOT NULL,
	"unlinked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trading_platform_links" ADD COLUMN "token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trading_platform_links" ADD COLUMN "broker_account" jsonb;--> statement-breakpoint
ALTER TABLE "ctrader_authorizations" ADD CONSTRAINT "ctrader_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_unlinks" ADD CONSTRAINT "platform_unlinks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ctrader_authorizations_user_idx" ON "ctrader_authorizations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "platform_unlinks_user_idx" ON "platform_unlinks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "trading_platform_links_token_expires_idx" ON "trading_platform_links" USING btree ("token_expires_at");