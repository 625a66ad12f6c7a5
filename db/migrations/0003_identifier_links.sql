CREATE TABLE "identifier_links" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"identifier_id" text NOT NULL,
	"idr_service_instance_id" text,
	"idr_link_id" text NOT NULL,
	"qualifier_path" text DEFAULT '/' NOT NULL,
	"description" text,
	"published" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identifier_links_instance_link_uq" UNIQUE("idr_service_instance_id","idr_link_id")
);
--> statement-breakpoint
ALTER TABLE "identifier_links" ADD CONSTRAINT "identifier_links_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identifier_links" ADD CONSTRAINT "identifier_links_identifier_id_identifiers_id_fk" FOREIGN KEY ("identifier_id") REFERENCES "public"."identifiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identifier_links" ADD CONSTRAINT "identifier_links_idr_service_instance_id_service_instances_id_fk" FOREIGN KEY ("idr_service_instance_id") REFERENCES "public"."service_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identifier_links_identifier_idx" ON "identifier_links" USING btree ("identifier_id","created_at");