ALTER TABLE "subscriptions" ADD COLUMN "next_payment_attempt_at" timestamp with time zone;--> statement-breakpoint
-- A past-due subscription no longer gives access (decision 058): billing's clock then ends it.
UPDATE "subscriptions" SET "access_until" = NULL WHERE "status" = 'past_due';
