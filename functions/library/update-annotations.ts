import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { CORE_TYPE_CODES } from '../../core/library/credential-types.ts';
import { loadRecordView } from '../../core/library/record-queries.ts';
import { assertAnnotatable, findOwnRecord, updateAnnotations } from '../../core/library/record-writes.ts';
import type { AppEnv } from '../platform/env.ts';
import { parseIfVersion } from '../../core/validation/if-version.ts';
import { ifVersionHeader } from '../platform/if-version.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { UpdateAnnotationsBody } from './annotation-fields.ts';
import { CredentialRecordSchema, RecordIdParam, toCredentialRecord } from './schemas.ts';

export const updateAnnotationsRoute = createRoute({
  method: 'patch',
  operationId: 'updateAnnotations',
  path: '/{id}',
  tags: ['Library'],
  summary: "Change an external record's annotations",
  description:
    'Header `If-Version` = the current `annotations.annotationVersion` (400 INVALID_IF_VERSION when missing or malformed, ' +
    '409 VERSION_CONFLICT when stale). `notes` and `dateReceived` are cleared with null. A credential issued here has no ' +
    'annotations: 403 NATIVE_CREDENTIAL_NOT_ANNOTATABLE.',
  security: guarded,
  request: { params: RecordIdParam, headers: ifVersionHeader, body: jsonBody(UpdateAnnotationsBody) },
  responses: {
    200: jsonResponse(CredentialRecordSchema, 'The record with its new annotations'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerUpdateAnnotations = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateAnnotationsRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const record = await findOwnRecord(db, tenantId, id);
    assertAnnotatable(record.origin);
    const version = parseIfVersion(c.req.header('if-version'));
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateAnnotationsBody.shape));
    await updateAnnotations(db, tenantId, id, version, {
      ...patch,
      declaredCredentialType: patch.declaredCredentialType === undefined ? undefined : CORE_TYPE_CODES[patch.declaredCredentialType],
    });
    return c.json(toCredentialRecord((await loadRecordView(db, tenantId, id))!), 200);
  });
