import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { reconcileStatus } from '../../core/credential-status/reconcile-status.ts';
import { parseIfVersion } from '../../core/validation/if-version.ts';
import type { AppEnv } from '../platform/env.ts';
import { ifVersionHeader } from '../platform/if-version.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { reconcileExample, reconciledEntryExample } from './openapi-examples.ts';
import { ENTRY_WRITE_ERRORS, PurposeParams, ReconcileBody, StatusEntrySchema, statusErrorResponses, toEntryResponse } from './schemas.ts';
import { statusDeps } from './status-deps.ts';

export const reconcileCredentialStatusRoute = createRoute({
  method: 'post',
  operationId: 'reconcileCredentialStatus',
  path: '/{id}/status/{purpose}/reconcile',
  tags: ['Credential status'],
  summary: "Record the VC service's bit for an entry, ending an interrupted operation",
  description:
    'Reads the entry from the VC service (never sets it) and records what it shows. A pending operation is left alone until its ' +
    'deadline plus CREDENTIAL_STATUS_RECONCILE_GRACE_MS (409 STATUS_OPERATION_IN_PROGRESS with retryAfterSeconds). Allowed while mutation is disabled. ' +
    'A VC instance config that cannot be decrypted is 500 RECORD_UNREADABLE.',
  security: guarded,
  request: { params: PurposeParams, headers: ifVersionHeader, body: jsonBody(ReconcileBody, 'Whether to take the provider’s bit', reconcileExample) },
  responses: {
    200: jsonResponse(StatusEntrySchema, 'The entry as now recorded', reconciledEntryExample),
    ...pick(401, 413, 500),
    ...statusErrorResponses([...ENTRY_WRITE_ERRORS, 'STATUS_PROVIDER_CHANGED']),
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
