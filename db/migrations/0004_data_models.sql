CREATE TABLE "data_models" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"credential_type" text NOT NULL,
	"version" text NOT NULL,
	"is_extension" boolean NOT NULL,
	"parent_config_id" text,
	"schema_url" text NOT NULL,
	"context_url" text NOT NULL,
	"website_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_models_name_uq" UNIQUE("tenant_id","credential_type","version","is_extension","name")
);
--> statement-breakpoint
ALTER TABLE "data_models" ADD CONSTRAINT "data_models_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_models" ADD CONSTRAINT "data_models_parent_config_id_data_models_id_fk" FOREIGN KEY ("parent_config_id") REFERENCES "public"."data_models"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_models_parent_idx" ON "data_models" USING btree ("parent_config_id");--> statement-breakpoint
CREATE INDEX "data_models_tenant_created_idx" ON "data_models" USING btree ("tenant_id","created_at");