-- Decision 116: a push subscription is the user's and the endpoint's, so that registering an
-- endpoint another user holds takes it from nobody.
ALTER TABLE "push_subscriptions" DROP CONSTRAINT "push_subscriptions_pkey";--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_endpoint_user_id_pk" PRIMARY KEY("endpoint","user_id");
