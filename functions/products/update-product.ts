import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findProduct, updateProduct } from '../../core/products/product-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { ProductDetailSchema, toProductDetailResponse, UpdateProductBody } from './schemas.ts';

export const updateProductRoute = createRoute({
  method: 'patch',
  operationId: 'updateProduct',
  path: '/{id}',
  tags: ['Products'],
  summary: 'Change one of the tenant’s products',
  description:
    'Only stated fields change; `level` is immutable and silently ignored when sent. `parentId`, ' +
    '`producedByOrganisationId`, `manufacturingFacilityId` and `primaryIdentifierId` accept null to clear ' +
    '(a BATCH cannot lose its MODEL parent). The hierarchy rules apply to a new parent (400). ' +
    '`secondaryIdentifierIds` replaces the set. 409 when the primary identifier is primary on another product.',
  security: guarded,
  request: { params: RecordIdParam, body: jsonBody(UpdateProductBody) },
  responses: {
    200: jsonResponse(ProductDetailSchema, 'The updated product'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerUpdateProduct = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateProductRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateProductBody.shape));
    await updateProduct(db, tenantId, id, patch);
    return c.json(toProductDetailResponse((await findProduct(db, tenantId, id))!), 200);
  });
