DROP INDEX "facilities_tenant_created_idx";--> statement-breakpoint
DROP INDEX "organisations_tenant_created_idx";--> statement-breakpoint
DROP INDEX "products_tenant_created_idx";--> statement-breakpoint
CREATE INDEX "facilities_tenant_created_id_idx" ON "facilities" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "organisations_tenant_created_id_idx" ON "organisations" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_tenant_created_id_idx" ON "products" USING btree ("tenant_id","created_at","id");