CREATE TABLE "render_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"data_model_id" text NOT NULL,
	"name" text NOT NULL,
	"render_method_type" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"inline" boolean,
	"media_type" text,
	"media_query" text,
	"storage_service_instance_id" text,
	"storage_object_id" text NOT NULL,
	"storage_url" text NOT NULL,
	"digest_multibase" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "render_templates" ADD CONSTRAINT "render_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "render_templates" ADD CONSTRAINT "render_templates_data_model_id_data_models_id_fk" FOREIGN KEY ("data_model_id") REFERENCES "public"."data_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "render_templates" ADD CONSTRAINT "render_templates_storage_service_instance_id_service_instances_id_fk" FOREIGN KEY ("storage_service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "render_templates_model_idx" ON "render_templates" USING btree ("data_model_id");--> statement-breakpoint
CREATE UNIQUE INDEX "render_templates_one_default_idx" ON "render_templates" USING btree ("tenant_id","data_model_id") WHERE "render_templates"."is_default";