DROP INDEX "identifiers_value_trgm_idx";--> statement-breakpoint
DROP INDEX "facilities_name_trgm_idx";--> statement-breakpoint
DROP INDEX "organisations_name_trgm_idx";--> statement-breakpoint
DROP INDEX "products_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "identifiers_value_trgm_idx" ON "identifiers" USING gin ("value" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "facilities_name_trgm_idx" ON "facilities" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "organisations_name_trgm_idx" ON "organisations" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);