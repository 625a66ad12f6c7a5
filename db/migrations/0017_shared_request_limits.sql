CREATE TABLE "client_rate_buckets" (
	"scope" text NOT NULL,
	"client" text NOT NULL,
	"tokens" double precision NOT NULL,
	"granted" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "client_rate_buckets_scope_client_pk" PRIMARY KEY("scope","client")
);
--> statement-breakpoint
CREATE TABLE "concurrency_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "client_rate_buckets_updated_at_idx" ON "client_rate_buckets" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "concurrency_leases_scope_expires_at_idx" ON "concurrency_leases" USING btree ("scope","expires_at");