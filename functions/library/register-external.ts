import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { assertValidTags } from '../../core/credentials/tags.ts';
import { badRequest, notFound } from '../../core/errors.ts';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from '../../core/idempotency/idempotency-key.ts';
import { loadRecordView } from '../../core/library/record-queries.ts';
import { DuplicateCredentialError, recordLocation, registerExternal } from '../../core/library/register-external.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { RegisterExternalBody } from './annotation-fields.ts';
import { libraryDeps } from './library-deps.ts';
import { registeredRecordExample, registerExternalExample } from './openapi-examples.ts';
import { CredentialRecordSchema, toCredentialRecord } from './schemas.ts';

export const registerExternalRoute = createRoute({
  method: 'post',
  operationId: 'registerExternal',
  path: '/',
  tags: ['Library'],
  summary: 'Register a credential received from elsewhere (from its URL)',
  description:
    'Header `Idempotency-Key` is required (1–255 printable ASCII). The source is fetched at once through the guarded fetch ' +
    '(a private or reserved address is 400 SOURCE_NOT_PERMITTED; a source that cannot be read is 422 SOURCE_UNREACHABLE), ' +
    'opened with `sourceEncryption.decryptionKey` when it is encrypted (the key is used once and never stored), and kept as ' +
    "our own durable copy, encrypted, on the tenant's storage instance. The same source bytes already registered are 409 " +
    'DUPLICATE_CREDENTIAL with `Location`; the same content under another URL or key registers with a DUPLICATE_CONTENT warning. ' +
    'Answers 201 at once with generation 1 pending: the worker verifies it. A retry with the same key and body answers the current record.',
  security: guarded,
  request: {
    headers: z.object({ 'Idempotency-Key': z.string().optional().openapi({ param: { in: 'header' }, description: 'Required: 1–255 printable ASCII characters', example: 'received-1' }) }),
    body: jsonBody(RegisterExternalBody, 'Where the credential is, its key if encrypted, and your annotations', registerExternalExample),
  },
  responses: {
    201: jsonResponse(CredentialRecordSchema, 'The registered record (verification pending)', registeredRecordExample),
    ...pick(400, 401, 403, 404, 409, 413, 422, 500, 502),
  },
});

export const registerRegisterExternal = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(registerExternalRoute, async (c) => {
    const { db, settings } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const key = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    if (key === undefined) throw badRequest(`${IDEMPOTENCY_HEADER}: header is required`);
    const body = c.req.valid('json');
    const tags = assertValidTags(body.tags ?? [], settings.issuance);
    let recordId: string;
    try {
      ({ recordId } = await registerExternal(libraryDeps(c), {
        tenantId,
        idempotencyKey: key,
        body,
        staleClaimMinutes: settings.idempotencyStaleClaimMinutes,
        registration: {
          sourceUrl: body.sourceUrl,
          supplierKey: body.sourceEncryption?.decryptionKey,
          annotations: body.annotations,
          tags,
        },
      }));
    } catch (error) {
      if (error instanceof DuplicateCredentialError) c.header('location', recordLocation(error.recordId));
      throw error;
    }
    const view = await loadRecordView(db, tenantId, recordId);
    if (!view) throw notFound('Credential record');
    c.header('location', recordLocation(recordId));
    return c.json(toCredentialRecord(view), 201);
  });
