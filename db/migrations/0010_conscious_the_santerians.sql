CREATE TYPE "public"."did_method" AS ENUM('DID_WEB', 'DID_WEB_VH');--> statement-breakpoint
CREATE TYPE "public"."did_status" AS ENUM('ACTIVE', 'UNVERIFIED', 'VERIFIED', 'VERIFICATION_FAILED', 'INACTIVE');--> statement-breakpoint
CREATE TYPE "public"."did_type" AS ENUM('DEFAULT', 'MANAGED', 'SELF_MANAGED');--> statement-breakpoint
CREATE TABLE "dids" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"did" text NOT NULL,
	"type" "did_type" NOT NULL,
	"method" "did_method" DEFAULT 'DID_WEB' NOT NULL,
	"status" "did_status" NOT NULL,
	"alias" text,
	"key_id" text,
	"name" text,
	"description" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"service_instance_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dids" ADD CONSTRAINT "dids_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dids" ADD CONSTRAINT "dids_service_instance_id_service_instances_id_fk" FOREIGN KEY ("service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dids_did_uq" ON "dids" USING btree ("did");--> statement-breakpoint
CREATE UNIQUE INDEX "dids_instance_alias_uq" ON "dids" USING btree ("service_instance_id","alias");--> statement-breakpoint
CREATE UNIQUE INDEX "dids_one_default_idx" ON "dids" USING btree ("tenant_id") WHERE "dids"."is_default";--> statement-breakpoint
CREATE INDEX "dids_tenant_created_idx" ON "dids" USING btree ("tenant_id","created_at");