import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findProduct } from '../../core/products/product-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { ProductDetailSchema, toProductDetailResponse } from './schemas.ts';

export const getProductRoute = createRoute({
  method: 'get',
  operationId: 'getProduct',
  path: '/{id}',
  tags: ['Products'],
  summary: 'One of the tenant’s products with its identifiers, producing organisation, manufacturing facility and parent',
  security: guarded,
  request: { params: RecordIdParam },
  responses: {
    200: jsonResponse(ProductDetailSchema, 'The product'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetProduct = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getProductRoute, async (c) => {
    const row = await findProduct(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Product');
    return c.json(toProductDetailResponse(row), 200);
  });
