-- Broker accounts linked by several users before this index (issue 37, decision 111): the
-- earliest link stays; each later one ends as an unlinking leaves it (recorded in
-- platform_unlinks with the operations it had open, the robot off), so the index can be built.
WITH "later" AS (
  DELETE FROM "trading_platform_links" AS l
  USING "trading_platform_links" AS e
  WHERE l."broker_account" IS NOT NULL AND e."broker_account" IS NOT NULL
    AND e."platform" = l."platform" AND e."platform_account_id" = l."platform_account_id"
    AND (e."broker_account" ->> 'live') IS NOT DISTINCT FROM (l."broker_account" ->> 'live')
    AND (e."linked_at", e."user_id") < (l."linked_at", l."user_id")
  RETURNING l."user_id", l."platform", l."platform_account_id"
), "recorded" AS (
  INSERT INTO "platform_unlinks"
    ("user_id", "platform", "platform_account_id", "closed_positions", "open_positions", "unlinked_at")
  SELECT "user_id", "platform", "platform_account_id", false,
    (SELECT count(*) FROM "operations" AS o
      WHERE o."account_id" = "later"."user_id" AND o."close_reason" = 'open'),
    now()
  FROM "later"
)
UPDATE "user_settings" SET "linked" = false, "login_tradear" = false, "bot_on" = false,
  "updated_at" = now()
WHERE "user_id" IN (SELECT "user_id" FROM "later");--> statement-breakpoint
CREATE UNIQUE INDEX "trading_platform_links_broker_account_key" ON "trading_platform_links" USING btree ("platform","platform_account_id",("broker_account" ->> 'live')) WHERE "trading_platform_links"."broker_account" is not null;
