CREATE TYPE "public"."details_status" AS ENUM('EXTRACTED', 'EXTRACTION_PENDING', 'EXTRACTION_FAILED');--> statement-breakpoint
CREATE TYPE "public"."idempotent_operation" AS ENUM('CREDENTIAL_ISSUE', 'LIBRARY_REGISTER');--> statement-breakpoint
CREATE TYPE "public"."record_origin" AS ENUM('NATIVE', 'EXTERNAL');--> statement-breakpoint
CREATE TYPE "public"."status_capture" AS ENUM('CAPTURED', 'FAILED', 'NONE');--> statement-breakpoint
CREATE TABLE "credential_status_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"credential_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"status_purpose" text NOT NULL,
	"type" text NOT NULL,
	"status_list_credential" text NOT NULL,
	"status_list_index" text NOT NULL,
	"status_list_issuer" text NOT NULL,
	"descriptor" jsonb NOT NULL,
	"value" boolean,
	"observed_at" timestamp with time zone,
	"value_changed_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"pending_value" boolean,
	"pending_since" timestamp with time zone,
	"pending_deadline" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"credential_type" text NOT NULL,
	"version" text NOT NULL,
	"data_model_id" text,
	"issuer_did" text NOT NULL,
	"vc_service_instance_id" text,
	"storage_service_instance_id" text,
	"storage_uri" text NOT NULL,
	"storage_external_id" text NOT NULL,
	"digest_multibase" text NOT NULL,
	"encrypted" boolean NOT NULL,
	"wrapped_decryption_key" text,
	"status_capture" "status_capture" NOT NULL,
	"status_captured_at" timestamp with time zone,
	"is_published" boolean DEFAULT false NOT NULL,
	"resolver_uri" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"operation" "idempotent_operation" NOT NULL,
	"key" text NOT NULL,
	"body_digest" text NOT NULL,
	"record_id" text,
	"sealed_response" text,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finalised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_records" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"origin" "record_origin" NOT NULL,
	"credential_type" text,
	"core_credential_type" text,
	"core_version" text,
	"name" text,
	"issuer_name" text,
	"issuer_did" text,
	"subject_name" text,
	"subject_id" text,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"details_status" "details_status" DEFAULT 'EXTRACTION_PENDING' NOT NULL,
	"details_error" text,
	"organisation_id" text,
	"facility_id" text,
	"product_id" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"tag_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credential_status_entries" ADD CONSTRAINT "credential_status_entries_credential_id_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_status_entries" ADD CONSTRAINT "credential_status_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_id_library_records_id_fk" FOREIGN KEY ("id") REFERENCES "public"."library_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_data_model_id_data_models_id_fk" FOREIGN KEY ("data_model_id") REFERENCES "public"."data_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_vc_service_instance_id_service_instances_id_fk" FOREIGN KEY ("vc_service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_storage_service_instance_id_service_instances_id_fk" FOREIGN KEY ("storage_service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_record_id_library_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."library_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_records" ADD CONSTRAINT "library_records_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_records" ADD CONSTRAINT "library_records_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_records" ADD CONSTRAINT "library_records_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_records" ADD CONSTRAINT "library_records_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_status_entries_purpose_uq" ON "credential_status_entries" USING btree ("credential_id","status_purpose");--> statement-breakpoint
CREATE INDEX "credential_status_entries_pending_idx" ON "credential_status_entries" USING btree ("tenant_id") WHERE "credential_status_entries"."pending_since" is not null;--> statement-breakpoint
CREATE INDEX "credentials_tenant_created_idx" ON "credentials" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "credentials_vc_instance_idx" ON "credentials" USING btree ("vc_service_instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_claim_uq" ON "idempotency_keys" USING btree ("tenant_id","operation","key");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_record_uq" ON "idempotency_keys" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "library_records_tenant_created_idx" ON "library_records" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "library_records_tenant_valid_from_idx" ON "library_records" USING btree ("tenant_id","valid_from","id");--> statement-breakpoint
CREATE INDEX "library_records_tags_idx" ON "library_records" USING gin ("tags");