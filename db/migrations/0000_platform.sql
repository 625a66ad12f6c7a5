CREATE TYPE "public"."adapter_type" AS ENUM('VC_ADAPTER', 'IDR_ADAPTER', 'STORAGE_ADAPTER');--> statement-breakpoint
CREATE TYPE "public"."service_type" AS ENUM('IDR', 'STORAGE', 'VC');--> statement-breakpoint
CREATE TABLE "browser_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"refresh_token_encrypted" text,
	"expires_at" timestamp with time zone NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"external_group_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenants_external_group_id_unique" UNIQUE("external_group_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_subject_unique" UNIQUE("subject")
);
--> statement-breakpoint
CREATE TABLE "service_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"service_type" "service_type" NOT NULL,
	"adapter_type" "adapter_type" NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"config_encrypted" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identifier_schemes" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"registrar_id" text NOT NULL,
	"name" text NOT NULL,
	"primary_key" text NOT NULL,
	"validation_pattern" text NOT NULL,
	"link_template" text NOT NULL,
	"idr_service_instance_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identifier_schemes_registrar_primary_key_uq" UNIQUE("registrar_id","primary_key")
);
--> statement-breakpoint
CREATE TABLE "identifiers" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identifiers_scheme_value_tenant_uq" UNIQUE("scheme_id","value","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "registrars" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"namespace" text NOT NULL,
	"url" text NOT NULL,
	"idr_service_instance_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheme_qualifiers" (
	"id" text PRIMARY KEY NOT NULL,
	"scheme_id" text NOT NULL,
	"key" text NOT NULL,
	"description" text NOT NULL,
	"validation_pattern" text NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheme_qualifiers_scheme_key_uq" UNIQUE("scheme_id","key")
);
--> statement-breakpoint
ALTER TABLE "browser_sessions" ADD CONSTRAINT "browser_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "browser_sessions" ADD CONSTRAINT "browser_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_instances" ADD CONSTRAINT "service_instances_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identifier_schemes" ADD CONSTRAINT "identifier_schemes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identifier_schemes" ADD CONSTRAINT "identifier_schemes_registrar_id_registrars_id_fk" FOREIGN KEY ("registrar_id") REFERENCES "public"."registrars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identifier_schemes" ADD CONSTRAINT "identifier_schemes_idr_service_instance_id_service_instances_id_fk" FOREIGN KEY ("idr_service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identifiers" ADD CONSTRAINT "identifiers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identifiers" ADD CONSTRAINT "identifiers_scheme_id_identifier_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."identifier_schemes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrars" ADD CONSTRAINT "registrars_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrars" ADD CONSTRAINT "registrars_idr_service_instance_id_service_instances_id_fk" FOREIGN KEY ("idr_service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_qualifiers" ADD CONSTRAINT "scheme_qualifiers_scheme_id_identifier_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."identifier_schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "browser_sessions_expires_idx" ON "browser_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "users_tenant_idx" ON "users" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "service_instances_tenant_type_idx" ON "service_instances" USING btree ("tenant_id","service_type");--> statement-breakpoint
CREATE UNIQUE INDEX "service_instances_one_primary_idx" ON "service_instances" USING btree ("tenant_id","service_type") WHERE "service_instances"."is_primary";--> statement-breakpoint
CREATE INDEX "identifier_schemes_tenant_idx" ON "identifier_schemes" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "identifiers_tenant_idx" ON "identifiers" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "registrars_tenant_created_idx" ON "registrars" USING btree ("tenant_id","created_at");