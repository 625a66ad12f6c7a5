import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteExternalRecord } from '../../core/library/delete-external.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { RecordIdParam } from './schemas.ts';

export const deleteExternalRoute = createRoute({
  method: 'delete',
  operationId: 'deleteExternal',
  path: '/{id}',
  tags: ['Library'],
  summary: 'Delete an external record',
  description:
    'Removes the record, its verification generations and its registration key, then (best effort) our durable copy. ' +
    '204 also when there is no such record. A credential issued here is deleted through DELETE /credentials/{id}: 403 NATIVE_CREDENTIAL_NOT_DELETABLE.',
  security: guarded,
  request: { params: RecordIdParam },
  responses: { 204: { description: 'Deleted, or there was nothing to delete' }, ...pick(401, 403, 500) },
});

export const registerDeleteExternal = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteExternalRoute, async (c) => {
    await deleteExternalRecord(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
