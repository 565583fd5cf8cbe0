ALTER TABLE "platform_deposits" ADD COLUMN "opening" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Each account's earliest deposit is its opening (decision 110). An account booked twice before
-- this migration keeps both rows; only the earliest is marked, so the index below can be built.
UPDATE "platform_deposits" AS d SET "opening" = true
FROM (
  SELECT DISTINCT ON ("account_id") "account_id", "deposited_at", "balance_after_cents"
  FROM "platform_deposits"
  ORDER BY "account_id", "deposited_at", "balance_after_cents"
) AS f
WHERE d."account_id" = f."account_id" AND d."deposited_at" = f."deposited_at"
  AND d."balance_after_cents" = f."balance_after_cents";--> statement-breakpoint
CREATE UNIQUE INDEX "platform_deposits_one_opening_key" ON "platform_deposits" USING btree ("account_id") WHERE "platform_deposits"."opening";
