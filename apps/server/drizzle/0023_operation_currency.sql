ALTER TABLE "operations" ADD COLUMN "currency" text;--> statement-breakpoint
-- Existing operations, from what is known (decision 103): the built-in platform's are USD; a
-- cTrader position (ct<account>-<id>, decision 096) of the account linked now takes the currency
-- the broker said for it; a former link's stays null, unknown.
UPDATE "operations" SET "currency" = 'USD' WHERE "position_id" NOT LIKE 'ct%';--> statement-breakpoint
UPDATE "operations" AS o SET "currency" = l."broker_account"->>'currency'
FROM "trading_platform_links" AS l
WHERE l."user_id" = o."account_id" AND l."platform" = 'ctrader'
  AND l."broker_account"->>'currency' IS NOT NULL
  AND o."position_id" LIKE 'ct' || (l."broker_account"->>'ctidTraderAccountId') || '-%';
