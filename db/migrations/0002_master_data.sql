CREATE TYPE "public"."product_level" AS ENUM('MODEL', 'BATCH', 'ITEM');--> statement-breakpoint
CREATE TABLE "facilities" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"location" jsonb,
	"operating_organisation_id" text,
	"primary_identifier_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "facilities_primary_identifier_id_unique" UNIQUE("primary_identifier_id")
);
--> statement-breakpoint
CREATE TABLE "facility_secondary_identifiers" (
	"facility_id" text NOT NULL,
	"identifier_id" text NOT NULL,
	CONSTRAINT "facility_secondary_identifiers_facility_id_identifier_id_pk" PRIMARY KEY("facility_id","identifier_id")
);
--> statement-breakpoint
CREATE TABLE "organisation_secondary_identifiers" (
	"organisation_id" text NOT NULL,
	"identifier_id" text NOT NULL,
	CONSTRAINT "organisation_secondary_identifiers_organisation_id_identifier_id_pk" PRIMARY KEY("organisation_id","identifier_id")
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"location" jsonb,
	"primary_identifier_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisations_primary_identifier_id_unique" UNIQUE("primary_identifier_id")
);
--> statement-breakpoint
CREATE TABLE "product_secondary_identifiers" (
	"product_id" text NOT NULL,
	"identifier_id" text NOT NULL,
	CONSTRAINT "product_secondary_identifiers_product_id_identifier_id_pk" PRIMARY KEY("product_id","identifier_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"level" "product_level" NOT NULL,
	"parent_id" text,
	"produced_by_organisation_id" text,
	"manufacturing_facility_id" text,
	"primary_identifier_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_primary_identifier_id_unique" UNIQUE("primary_identifier_id")
);
--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_operating_organisation_id_organisations_id_fk" FOREIGN KEY ("operating_organisation_id") REFERENCES "public"."organisations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_primary_identifier_id_identifiers_id_fk" FOREIGN KEY ("primary_identifier_id") REFERENCES "public"."identifiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facility_secondary_identifiers" ADD CONSTRAINT "facility_secondary_identifiers_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facility_secondary_identifiers" ADD CONSTRAINT "facility_secondary_identifiers_identifier_id_identifiers_id_fk" FOREIGN KEY ("identifier_id") REFERENCES "public"."identifiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_secondary_identifiers" ADD CONSTRAINT "organisation_secondary_identifiers_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_secondary_identifiers" ADD CONSTRAINT "organisation_secondary_identifiers_identifier_id_identifiers_id_fk" FOREIGN KEY ("identifier_id") REFERENCES "public"."identifiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_primary_identifier_id_identifiers_id_fk" FOREIGN KEY ("primary_identifier_id") REFERENCES "public"."identifiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_secondary_identifiers" ADD CONSTRAINT "product_secondary_identifiers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_secondary_identifiers" ADD CONSTRAINT "product_secondary_identifiers_identifier_id_identifiers_id_fk" FOREIGN KEY ("identifier_id") REFERENCES "public"."identifiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_parent_id_products_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_produced_by_organisation_id_organisations_id_fk" FOREIGN KEY ("produced_by_organisation_id") REFERENCES "public"."organisations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_manufacturing_facility_id_facilities_id_fk" FOREIGN KEY ("manufacturing_facility_id") REFERENCES "public"."facilities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_primary_identifier_id_identifiers_id_fk" FOREIGN KEY ("primary_identifier_id") REFERENCES "public"."identifiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "facilities_tenant_created_idx" ON "facilities" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "facilities_operating_organisation_idx" ON "facilities" USING btree ("operating_organisation_id");--> statement-breakpoint
CREATE INDEX "facilities_name_trgm_idx" ON "facilities" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "facility_secondary_identifiers_identifier_idx" ON "facility_secondary_identifiers" USING btree ("identifier_id");--> statement-breakpoint
CREATE INDEX "organisation_secondary_identifiers_identifier_idx" ON "organisation_secondary_identifiers" USING btree ("identifier_id");--> statement-breakpoint
CREATE INDEX "organisations_tenant_created_idx" ON "organisations" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "organisations_name_trgm_idx" ON "organisations" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "product_secondary_identifiers_identifier_idx" ON "product_secondary_identifiers" USING btree ("identifier_id");--> statement-breakpoint
CREATE INDEX "products_tenant_created_idx" ON "products" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "products_parent_idx" ON "products" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "products_organisation_idx" ON "products" USING btree ("produced_by_organisation_id");--> statement-breakpoint
CREATE INDEX "products_facility_idx" ON "products" USING btree ("manufacturing_facility_id");--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "identifiers_value_trgm_idx" ON "identifiers" USING gin ("value" gin_trgm_ops);