import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError, notFound } from '../../core/errors.ts';
import { loadRecordView } from '../../core/library/record-queries.ts';
import { isReadable } from '../../core/library/record-rules.ts';
import { storedCopyOf, unwrapKey } from '../../core/library/stored-copy.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { CredentialRecordDetailSchema, RecordIdParam, toCredentialRecordDetail } from './schemas.ts';

export const getLibraryRecordRoute = createRoute({
  method: 'get',
  operationId: 'getLibraryRecord',
  path: '/{id}',
  tags: ['Library'],
  summary: 'One record with its stored copy: storageUri, digestMultibase and the decryptionKey that opens it',
  description:
    '`decryptionKey` is always present: null for a copy stored in the clear, or, with a DECRYPTION_KEY_UNAVAILABLE warning, ' +
    'when the held key cannot be opened. Never cached (no-store).',
  security: guarded,
  request: { params: RecordIdParam },
  responses: {
    200: jsonResponse(CredentialRecordDetailSchema, 'The record'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetLibraryRecord = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getLibraryRecordRoute, async (c) => {
    const { db, secretBox } = c.get('services');
    const view = await loadRecordView(db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!view) throw notFound('Credential record');
    if (!isReadable(view)) throw new ApiError(500, 'This credential record cannot be read.', 'RECORD_UNREADABLE');
    const copy = storedCopyOf(view)!;
    const key = copy.wrappedKey === null ? null : await unwrapKey(secretBox, copy.wrappedKey);
    c.header('cache-control', 'no-store');
    return c.json(
      toCredentialRecordDetail(view, {
        storageUri: copy.storageUri,
        digestMultibase: copy.digestMultibase,
        decryptionKey: key ?? null,
        keyWarning:
          key === undefined
            ? { code: 'DECRYPTION_KEY_UNAVAILABLE', message: 'The key of the stored copy is held but cannot be revealed.' }
            : undefined,
      }),
      200,
    );
  });
