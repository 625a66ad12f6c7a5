CREATE TYPE "public"."check_result" AS ENUM('pass', 'fail', 'not_run');--> statement-breakpoint
CREATE TYPE "public"."content_kind" AS ENUM('CREDENTIAL', 'JSON_OBJECT', 'OPAQUE');--> statement-breakpoint
CREATE TYPE "public"."verification_run_state" AS ENUM('PENDING', 'COMPLETE', 'FAILED');--> statement-breakpoint
CREATE TYPE "public"."verification_summary" AS ENUM('pending', 'verified', 'not_conformant', 'failed');--> statement-breakpoint
CREATE TABLE "external_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"source_url" text NOT NULL,
	"source_digest" text NOT NULL,
	"content_digest" text NOT NULL,
	"duplicate_of_record_id" text,
	"encrypted" boolean NOT NULL,
	"unopened" boolean DEFAULT false NOT NULL,
	"content_kind" "content_kind" NOT NULL,
	"storage_service_instance_id" text,
	"storage_uri" text NOT NULL,
	"storage_external_id" text NOT NULL,
	"storage_digest_multibase" text NOT NULL,
	"wrapped_copy_key" text NOT NULL,
	"display_name" text NOT NULL,
	"declared_credential_type" text NOT NULL,
	"date_received" date,
	"notes" text,
	"annotation_version" integer DEFAULT 1 NOT NULL,
	"decryption_key_unused" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"record_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"generation" integer NOT NULL,
	"state" "verification_run_state" DEFAULT 'PENDING' NOT NULL,
	"summary" "verification_summary" DEFAULT 'pending' NOT NULL,
	"retrieval" "check_result",
	"decryption" "check_result",
	"digest" "check_result",
	"proof" "check_result",
	"status" "check_result",
	"temporal" "check_result",
	"schema_conformance" "check_result",
	"schema_conformance_message" text,
	"failure_code" text,
	"failure_message" text,
	"failure_retryable" boolean,
	"source_changed" boolean,
	"last_source_check_at" timestamp with time zone,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"last_enqueued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_credentials" ADD CONSTRAINT "external_credentials_id_library_records_id_fk" FOREIGN KEY ("id") REFERENCES "public"."library_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_credentials" ADD CONSTRAINT "external_credentials_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_credentials" ADD CONSTRAINT "external_credentials_duplicate_of_record_id_library_records_id_fk" FOREIGN KEY ("duplicate_of_record_id") REFERENCES "public"."library_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_credentials" ADD CONSTRAINT "external_credentials_storage_service_instance_id_service_instances_id_fk" FOREIGN KEY ("storage_service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_runs" ADD CONSTRAINT "verification_runs_record_id_library_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."library_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_runs" ADD CONSTRAINT "verification_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_credentials_source_digest_uq" ON "external_credentials" USING btree ("tenant_id","source_digest");--> statement-breakpoint
CREATE INDEX "external_credentials_content_idx" ON "external_credentials" USING btree ("tenant_id","content_digest");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_runs_generation_uq" ON "verification_runs" USING btree ("record_id","generation");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_runs_one_pending_uq" ON "verification_runs" USING btree ("record_id") WHERE "verification_runs"."state" = 'PENDING';--> statement-breakpoint
CREATE INDEX "verification_runs_pending_idx" ON "verification_runs" USING btree ("requested_at") WHERE "verification_runs"."state" = 'PENDING';--> statement-breakpoint
CREATE INDEX "verification_runs_tenant_summary_idx" ON "verification_runs" USING btree ("tenant_id","summary");