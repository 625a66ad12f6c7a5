CREATE TYPE "public"."batch_item_state" AS ENUM('QUEUED', 'PROCESSING', 'ISSUED', 'FAILED', 'CANCELLED', 'OUTCOME_UNKNOWN');--> statement-breakpoint
CREATE TYPE "public"."batch_state" AS ENUM('QUEUED', 'RUNNING', 'COMPLETED', 'NEEDS_ATTENTION', 'CANCELLED', 'EXPIRED');--> statement-breakpoint
CREATE TABLE "credential_batch_items" (
	"id" text PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"index" integer NOT NULL,
	"reference" text,
	"state" "batch_item_state" DEFAULT 'QUEUED' NOT NULL,
	"sealed_request" text NOT NULL,
	"credential_id" text,
	"warnings" jsonb,
	"error_code" text,
	"error_message" text,
	"resolution_reason" text,
	"resolution_evidence" text,
	"resolved_at" timestamp with time zone,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"attempt_token" text,
	"correlation_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"correlation_id" text NOT NULL,
	"state" "batch_state" DEFAULT 'QUEUED' NOT NULL,
	"item_count" integer NOT NULL,
	"queued_count" integer DEFAULT 0 NOT NULL,
	"processing_count" integer DEFAULT 0 NOT NULL,
	"issued_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"unknown_count" integer DEFAULT 0 NOT NULL,
	"cancelled_count" integer DEFAULT 0 NOT NULL,
	"cancel_requested_at" timestamp with time zone,
	"idempotency_key" text NOT NULL,
	"body_digest" text NOT NULL,
	"settled_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"last_progress_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_token" text,
	"claim_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credential_batches_counts_ck" CHECK ("credential_batches"."queued_count" >= 0 and "credential_batches"."processing_count" >= 0 and "credential_batches"."issued_count" >= 0 and "credential_batches"."failed_count" >= 0 and "credential_batches"."unknown_count" >= 0 and "credential_batches"."cancelled_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "credential_batch_items" ADD CONSTRAINT "credential_batch_items_batch_id_credential_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."credential_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_batch_items" ADD CONSTRAINT "credential_batch_items_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_batches" ADD CONSTRAINT "credential_batches_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_batch_items_index_uq" ON "credential_batch_items" USING btree ("batch_id","index");--> statement-breakpoint
CREATE UNIQUE INDEX "credential_batch_items_reference_uq" ON "credential_batch_items" USING btree ("batch_id","reference");--> statement-breakpoint
CREATE INDEX "credential_batch_items_tenant_credential_idx" ON "credential_batch_items" USING btree ("tenant_id","credential_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credential_batches_submission_uq" ON "credential_batches" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "credential_batches_open_idx" ON "credential_batches" USING btree ("last_progress_at") WHERE "credential_batches"."state" in ('QUEUED', 'RUNNING');--> statement-breakpoint
CREATE INDEX "credential_batches_expiry_idx" ON "credential_batches" USING btree ("expires_at") WHERE "credential_batches"."expires_at" is not null and "credential_batches"."state" <> 'EXPIRED';