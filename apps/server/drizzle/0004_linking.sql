CREATE TABLE "brokers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"regulators" text[] NOT NULL,
	"countries" text[] NOT NULL,
	"platforms" text[] NOT NULL,
	"min_deposit_cents" bigint NOT NULL,
	"markets" text[] NOT NULL,
	"robot_supported" boolean NOT NULL,
	"website" text,
	"example" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_users" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"starting_balance_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trading_platform_links" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"platform_account_id" text NOT NULL,
	"credentials_ciphertext" text,
	"credentials_key_id" text,
	"linked_at" timestamp with time zone NOT NULL,
	"logged_in_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_subscriptions" ADD COLUMN "code_mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "platform_users" ADD CONSTRAINT "platform_users_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trading_platform_links" ADD CONSTRAINT "trading_platform_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "platform_users_email_lower_key" ON "platform_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "trading_platform_links_key_id_idx" ON "trading_platform_links" USING btree ("credentials_key_id");