CREATE TABLE "job_claims" (
	"job" text NOT NULL,
	"item" text NOT NULL,
	"owner" text NOT NULL,
	"claims" integer DEFAULT 1 NOT NULL,
	"claimed_until" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "job_claims_job_item_pk" PRIMARY KEY("job","item")
);
--> statement-breakpoint
CREATE INDEX "job_claims_finished_idx" ON "job_claims" USING btree ("finished_at");