import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { reconcileStatus } from '../../core/credential-status/reconcile-status.ts';
import { parseIfVersion } from '../../core/validation/if-version.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { COMMON_ERRORS, IfVersionHeader, PurposeParams, ReconcileBody, StatusEntrySchema, statusErrorResponses, toEntryResponse } from './schemas.ts';
import { statusDeps } from './status-deps.ts';

export const reconcileCredentialStatusRoute = createRoute({
  method: 'post',
  path: '/{id}/status/{purpose}/reconcile',
  tags: ['Credential status'],
  summary: "Record the VC service's bit for an entry, ending an interrupted operation",
  description:
    'Reads the entry from the VC service (never sets it) and records what it shows. A pending operation is left alone until its ' +
    'deadline plus CREDENTIAL_STATUS_RECONCILE_GRACE_MS (409 STATUS_OPERATION_IN_PROGRESS with retryAfterSeconds). Allowed while mutation is disabled. ' +
    'A VC instance config that cannot be decrypted is 500 RECORD_UNREADABLE.',
  security: guarded,
  request: { params: PurposeParams, headers: IfVersionHeader, body: jsonBody(ReconcileBody) },
  responses: {
    200: jsonResponse(StatusEntrySchema, 'The entry as now recorded'),
    ...pick(401, 413, 500),
    ...statusErrorResponses([
      ...COMMON_ERRORS,
      [400, 'INVALID_IF_VERSION'],
      'STATUS_PURPOSE_UNSUPPORTED',
      'EXTERNAL_CREDENTIAL_STATUS_NOT_MANAGEABLE',
      'STATUS_ENTRY_NOT_FOUND',
      'VERSION_CONFLICT',
      'STATUS_OPERATION_IN_PROGRESS',
      'STATUS_PROVIDER_CHANGED',
      'STATUS_METADATA_UNAVAILABLE',
      'STATUS_ENTRY_UNSUPPORTED',
      'VC_REJECTED',
      'VC_SERVICE_UNAVAILABLE',
      'VC_STATUS_RESPONSE_INVALID',
    ]),
  },
});

export const registerReconcileCredentialStatus = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(reconcileCredentialStatusRoute, async (c) => {
    const { id, purpose } = c.req.valid('param');
    const ifVersion = parseIfVersion(c.req.header('if-version'));
    const { acceptProviderChange } = c.req.valid('json');
    const entry = await reconcileStatus(statusDeps(c), { tenantId: c.get('principal').tenantId, credentialId: id, purpose, ifVersion, acceptProviderChange });
    c.header('cache-control', 'no-store');
    return c.json(toEntryResponse(entry), 200);
  });
