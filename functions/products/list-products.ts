import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listProducts } from '../../core/products/product-repository.ts';
import { PRODUCT_LEVELS } from '../../db/schema/index.ts';
import { searchQuery } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { idText } from '../platform/fields.ts';
import { enumFilter } from '../platform/filters.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { ProductSchema, toProductResponse } from './schemas.ts';

export const listProductsRoute = createRoute({
  method: 'get',
  operationId: 'listProducts',
  path: '/',
  tags: ['Products'],
  summary: "List the tenant's products, newest first",
  description: 'Items carry `secondaryIdentifierIds` but not the relations (see the single response).',
  security: guarded,
  request: {
    query: z.object({
      search: searchQuery(),
      level: enumFilter(PRODUCT_LEVELS),
      parentId: idText().optional().openapi({ description: 'Only children of this product' }),
      organisationId: idText().optional().openapi({ description: 'Only products produced by this organisation' }),
      facilityId: idText().optional().openapi({ description: 'Only products manufactured at this facility' }),
      ...pageQuerySchema,
    }),
  },
  responses: {
    200: jsonResponse(listEnvelopeSchema(ProductSchema), 'A page of products'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListProducts = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listProductsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const { search, limit, offset, ...filter } = c.req.valid('query');
    const page = parsePage({ limit, offset }, settings);
    const { rows, total } = await listProducts(db, c.get('principal').tenantId, { ...filter, search: search?.trim() || undefined }, page);
    return c.json(listEnvelope(rows.map(toProductResponse), total, page), 200);
  });
