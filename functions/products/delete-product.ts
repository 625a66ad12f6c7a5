import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteProduct } from '../../core/products/product-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';

export const deleteProductRoute = createRoute({
  method: 'delete',
  operationId: 'deleteProduct',
  path: '/{id}',
  tags: ['Products'],
  summary: 'Delete one of the tenant’s products',
  description:
    'A MODEL with BATCH children cannot be deleted (400 PRODUCT_HAS_BATCHES, a hierarchy rule; nothing removed). A BATCH with ITEM children is ' +
    'deleted and the items’ parentId becomes null. Credentials that name it keep existing with the ' +
    'reference set to null. Its identifiers are not deleted.',
  security: guarded,
  request: { params: RecordIdParam },
  responses: { 204: { description: 'Deleted' }, ...pick(400, 401, 403, 404, 500) },
});

export const registerDeleteProduct = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteProductRoute, async (c) => {
    await deleteProduct(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
