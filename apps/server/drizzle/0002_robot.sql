CREATE TABLE "day_starts" (
	"account_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"equity_cents" bigint NOT NULL,
	CONSTRAINT "day_starts_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
CREATE TABLE "market_quotes" (
	"symbol" text PRIMARY KEY NOT NULL,
	"quoted_at" timestamp with time zone NOT NULL,
	"bid" double precision NOT NULL,
	"ask" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operations" (
	"position_id" text PRIMARY KEY NOT NULL,
	"client_order_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"category" text NOT NULL,
	"side" text NOT NULL,
	"units" double precision NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"entry_bid" double precision NOT NULL,
	"entry_ask" double precision NOT NULL,
	"entry_price" double precision NOT NULL,
	"pip_size" double precision NOT NULL,
	"take_profit" double precision NOT NULL,
	"stop_loss" double precision NOT NULL,
	"probability" double precision NOT NULL,
	"break_even_probability" double precision NOT NULL,
	"margin_cents" bigint NOT NULL,
	"equity_at_entry_cents" bigint NOT NULL,
	"free_margin_at_entry_cents" bigint NOT NULL,
	"used_margin_after_entry_cents" bigint NOT NULL,
	"closed_at" timestamp with time zone,
	"close_price" double precision,
	"close_reason" text DEFAULT 'open' NOT NULL,
	"profit_cents" bigint
);
--> statement-breakpoint
CREATE TABLE "order_intents" (
	"client_order_id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"category" text NOT NULL,
	"side" text NOT NULL,
	"units" double precision NOT NULL,
	"take_profit" double precision NOT NULL,
	"stop_loss" double precision NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"decision_bid" double precision NOT NULL,
	"decision_ask" double precision NOT NULL,
	"probability" double precision NOT NULL,
	"break_even_probability" double precision NOT NULL,
	"estimated_margin_cents" bigint NOT NULL,
	"equity_at_entry_cents" bigint NOT NULL,
	"free_margin_at_entry_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"reject_reason" text
);
--> statement-breakpoint
CREATE TABLE "platform_accounts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"deposits_cents" bigint DEFAULT 0 NOT NULL,
	"realised_profit_cents" bigint DEFAULT 0 NOT NULL,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_deposits" (
	"account_id" uuid NOT NULL,
	"deposited_at" timestamp with time zone NOT NULL,
	"cents" bigint NOT NULL,
	"balance_after_cents" bigint NOT NULL,
	CONSTRAINT "platform_deposits_account_id_deposited_at_balance_after_cents_pk" PRIMARY KEY("account_id","deposited_at","balance_after_cents")
);
--> statement-breakpoint
CREATE TABLE "platform_orders" (
	"client_order_id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"settled_at" timestamp with time zone NOT NULL,
	"reject_reason" text,
	"position_id" text,
	"position_number" integer,
	"symbol" text,
	"side" text,
	"units" double precision,
	"price" double precision,
	"bid" double precision,
	"ask" double precision,
	"take_profit" double precision,
	"stop_loss" double precision,
	"margin_cents" bigint,
	"closed_at" timestamp with time zone,
	"close_price" double precision,
	"close_reason" text,
	"close_profit_cents" bigint
);
--> statement-breakpoint
ALTER TABLE "day_starts" ADD CONSTRAINT "day_starts_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_intents" ADD CONSTRAINT "order_intents_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_accounts" ADD CONSTRAINT "platform_accounts_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_deposits" ADD CONSTRAINT "platform_deposits_account_id_platform_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."platform_accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_orders" ADD CONSTRAINT "platform_orders_account_id_platform_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."platform_accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operations_client_order_id_key" ON "operations" USING btree ("client_order_id");--> statement-breakpoint
CREATE INDEX "operations_account_closed_idx" ON "operations" USING btree ("account_id","closed_at","position_id");--> statement-breakpoint
CREATE INDEX "operations_open_idx" ON "operations" USING btree ("account_id") WHERE "operations"."close_reason" = 'open';--> statement-breakpoint
CREATE INDEX "order_intents_pending_idx" ON "order_intents" USING btree ("client_order_id") WHERE "order_intents"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "order_intents_account_idx" ON "order_intents" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_orders_position_id_key" ON "platform_orders" USING btree ("position_id");--> statement-breakpoint
CREATE INDEX "platform_orders_open_idx" ON "platform_orders" USING btree ("account_id") WHERE "platform_orders"."outcome" = 'filled' and "platform_orders"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "platform_orders_settled_at_idx" ON "platform_orders" USING btree ("settled_at");