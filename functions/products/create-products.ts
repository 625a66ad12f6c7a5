import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { readInChunks } from '../../core/master-data/master-record.ts';
import { createProducts, findProducts } from '../../core/products/product-repository.ts';
import { bulkBody } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { heavyRequest } from '../platform/tenant-slots.ts';
import { CreateProductItem, ProductDetailSchema, toProductDetailResponse } from './schemas.ts';

export const createProductsRoute = createRoute({
  method: 'post',
  operationId: 'createProducts',
  path: '/',
  tags: ['Products'],
  summary: 'Create products in bulk (all or nothing)',
  description:
    'A non-empty JSON array; name and level are required. Every item is checked before anything is written: ' +
    'one bad item (400 naming it as `[i].field`; explicit null on an optional field is a 400), a hierarchy ' +
    'violation (400: MODEL has no parent, BATCH needs a MODEL parent, ITEM may have a BATCH parent), a ' +
    'referenced parent, organisation, facility or identifier that is missing or another tenant’s (404), or a ' +
    'primary identifier already primary on another product (409) rejects the whole request. Unrecognised keys ' +
    'are ignored. Parents must exist before the request.',
  security: guarded,
  request: { body: jsonBody(bulkBody(CreateProductItem)) },
  responses: {
    201: jsonResponse(z.array(ProductDetailSchema), 'The created products, in request order, with identifiers'),
    ...pick(400, 401, 403, 404, 409, 413, 429, 500),
  },
});

export const registerCreateProducts = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createProductsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const ids = await heavyRequest(settings, tenantId, () => createProducts(db, tenantId, c.req.valid('json')));
    const rows = await readInChunks(ids, (chunk) => findProducts(db, tenantId, chunk));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return c.json(ids.map((id) => toProductDetailResponse(byId.get(id)!)), 201);
  });
