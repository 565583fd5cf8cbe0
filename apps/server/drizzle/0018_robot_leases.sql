CREATE SEQUENCE "public"."robot_position_blocks" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "robot_leases" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"token" bigint DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"held_since" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "robot_processes" (
	"owner" text PRIMARY KEY NOT NULL,
	"seen_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platform_orders" ALTER COLUMN "position_number" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "robot_leases" ADD CONSTRAINT "robot_leases_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "robot_leases_owner_idx" ON "robot_leases" USING btree ("owner");