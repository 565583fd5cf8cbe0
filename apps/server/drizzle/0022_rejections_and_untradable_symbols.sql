ALTER TABLE "order_intents" ADD COLUMN "reject_broker_code" text;--> statement-breakpoint
ALTER TABLE "trading_platform_links" ADD COLUMN "untradable_symbols" jsonb;--> statement-breakpoint
CREATE INDEX "order_intents_rejected_idx" ON "order_intents" USING btree ("account_id","decided_at","client_order_id") WHERE "order_intents"."status" = 'rejected';