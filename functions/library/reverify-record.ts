import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { badRequest } from '../../core/errors.ts';
import { loadRecordView } from '../../core/library/record-queries.ts';
import { findOwnRecord } from '../../core/library/record-writes.ts';
import { requestVerification } from '../../core/library/request-verification.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { libraryDeps } from './library-deps.ts';
import { CredentialRecordSchema, RecordIdParam, toCredentialRecord } from './schemas.ts';

export const reverifyRecordRoute = createRoute({
  method: 'post',
  path: '/{id}/verify',
  tags: ['Library'],
  summary: 'Verify a record again',
  description:
    'Starts the next generation (a native record’s first is generation 2; generation 1 is its issuance), or joins the one ' +
    'already pending. Answers 202 with the keyless record; the worker settles the generation (without a running worker it ' +
    'stays pending until one starts). An external copy still holding unopened ciphertext is 400 DECRYPTION_REQUIRED.',
  security: guarded,
  request: { params: RecordIdParam },
  responses: {
    202: jsonResponse(CredentialRecordSchema, 'The record with its pending generation'),
    ...pick(400, 401, 403, 404, 500),
  },
});

export const registerReverifyRecord = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(reverifyRecordRoute, async (c) => {
    const deps = libraryDeps(c);
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const record = await findOwnRecord(deps.db, tenantId, id);
    const view = (await loadRecordView(deps.db, tenantId, id))!;
    if (view.external?.unopened) {
      throw badRequest(
        'The stored copy is encrypted and no key was supplied to open it: delete this record and register the source again with sourceEncryption.decryptionKey.',
        'DECRYPTION_REQUIRED',
      );
    }
    await deps.db.transaction((tx) => requestVerification(tx, deps.jobs, { tenantId, recordId: id, origin: record.origin }));
    return c.json(toCredentialRecord((await loadRecordView(deps.db, tenantId, id))!), 202);
  });
