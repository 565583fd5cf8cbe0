CREATE TABLE "registration_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"nonce_hash" text NOT NULL,
	"email" text NOT NULL,
	"registration" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "registration_confirmations_token_hash_key" ON "registration_confirmations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "registration_confirmations_email_idx" ON "registration_confirmations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "registration_confirmations_expires_at_idx" ON "registration_confirmations" USING btree ("expires_at");