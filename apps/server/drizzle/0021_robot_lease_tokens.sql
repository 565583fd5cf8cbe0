CREATE SEQUENCE "public"."robot_lease_tokens" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
SELECT setval('robot_lease_tokens', (SELECT coalesce(max("token"), 0) + 1 FROM "robot_leases"), false);
