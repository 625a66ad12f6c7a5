CREATE TABLE "cvc_criteria" (
	"tenant_id" text NOT NULL,
	"id" text NOT NULL,
	"profile_id" text NOT NULL,
	"name" text NOT NULL,
	"version" text,
	"status" text,
	"topics" jsonb NOT NULL,
	"tags" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cvc_criteria_tenant_id_profile_id_id_pk" PRIMARY KEY("tenant_id","profile_id","id")
);
--> statement-breakpoint
CREATE TABLE "cvc_profiles" (
	"tenant_id" text NOT NULL,
	"id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"name" text NOT NULL,
	"version" text,
	"status" text,
	"valid_from" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cvc_profiles_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "cvc_schemes" (
	"tenant_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"spec_version" text,
	"owner" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cvc_schemes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "cvc_criteria" ADD CONSTRAINT "cvc_criteria_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cvc_profiles" ADD CONSTRAINT "cvc_profiles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cvc_schemes" ADD CONSTRAINT "cvc_schemes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cvc_criteria_profile_idx" ON "cvc_criteria" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "cvc_profiles_scheme_idx" ON "cvc_profiles" USING btree ("scheme_id");