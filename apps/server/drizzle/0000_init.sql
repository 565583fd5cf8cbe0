CREATE TABLE "email_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"promo" text,
	"language" text DEFAULT 'es' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"bot_on" boolean DEFAULT false NOT NULL,
	"risk" smallint DEFAULT 1 NOT NULL,
	"categories_enabled" jsonb NOT NULL,
	"linked" boolean DEFAULT false NOT NULL,
	"login_tradear" boolean DEFAULT false NOT NULL,
	"authorized" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"password_hash" text NOT NULL,
	"language" text DEFAULT 'es' NOT NULL,
	"subscribed_newsletter" boolean DEFAULT false NOT NULL,
	"partner_id" text,
	"client_source" text,
	"referral" text,
	"promocode" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_subscriptions_email_lower_key" ON "email_subscriptions" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "email_subscriptions_created_at_idx" ON "email_subscriptions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));