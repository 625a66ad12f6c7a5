import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { notFound } from '../../core/errors.ts';
import { loadRecordView } from '../../core/library/record-queries.ts';
import { reverifyRecord } from '../../core/library/reverify-record.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { sourceEncryptionField } from './annotation-fields.ts';
import { libraryDeps } from './library-deps.ts';
import { reverifyExample, reverifyingRecordExample } from './openapi-examples.ts';
import { CredentialRecordSchema, RecordIdParam, toCredentialRecord } from './schemas.ts';

const ReverifyBody = z.object({ sourceEncryption: sourceEncryptionField.optional() }).openapi('ReverifyLibraryRecord');

export const reverifyRecordRoute = createRoute({
  method: 'post',
  operationId: 'reverifyRecord',
  path: '/{id}/verify',
  tags: ['Library'],
  summary: 'Verify a record again',
  description:
    'Starts the next generation (a native record’s first is generation 2; generation 1 is its issuance), or joins the one ' +
    'already pending. Answers 202 with the keyless record; the worker settles the generation (without a running worker it ' +
    'stays pending until one starts). An external copy still holding the supplier’s ciphertext needs the key: without ' +
    '`sourceEncryption` it is 400 DECRYPTION_REQUIRED; with it the copy is opened (the key used once, never kept) and ' +
    'verified. `sourceEncryption` on any other record is 400 SOURCE_ENCRYPTION_NOT_ALLOWED. The body is optional.',
  security: guarded,
  request: { params: RecordIdParam, body: { ...jsonBody(ReverifyBody, 'Optional: the key of a copy still encrypted', reverifyExample), required: false } },
  responses: {
    202: jsonResponse(CredentialRecordSchema, 'The record with its pending generation', reverifyingRecordExample),
    ...pick(400, 401, 403, 404, 413, 422, 500, 502),
  },
});

export const registerReverifyRecord = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(reverifyRecordRoute, async (c) => {
    const deps = libraryDeps(c);
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const { sourceEncryption } = c.req.valid('json');
    const view = await loadRecordView(deps.db, tenantId, id);
    if (!view) throw notFound('Credential record');
    await reverifyRecord(deps, tenantId, view, sourceEncryption?.decryptionKey);
    return c.json(toCredentialRecord((await loadRecordView(deps.db, tenantId, id))!), 202);
  });
