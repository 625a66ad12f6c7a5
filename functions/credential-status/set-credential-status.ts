import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { changeStatus } from '../../core/credential-status/change-status.ts';
import { parseIfVersion } from '../../core/validation/if-version.ts';
import type { AppEnv } from '../platform/env.ts';
import { ifVersionHeader } from '../platform/if-version.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { setStatusExample, statusChangeExample } from './openapi-examples.ts';
import { ENTRY_WRITE_ERRORS, PurposeParams, SetStatusBody, StatusChangeSchema, statusErrorResponses, toChangeResponse } from './schemas.ts';
import { statusDeps } from './status-deps.ts';

export const setCredentialStatusRoute = createRoute({
  method: 'put',
  operationId: 'setCredentialStatus',
  path: '/{id}/status/{purpose}',
  tags: ['Credential status'],
  summary: 'Revoke, suspend or un-suspend a credential',
  description:
    'Sets the bit of the entry for `purpose` in its status list on the VC service. Revocation cannot be undone; suspension goes both ways. ' +
    'The operation is recorded as pending before the VC service is called; if its outcome stays unknown the entry stays pending until ' +
    'POST …/reconcile reads the provider. Disabled (503) unless CREDENTIAL_STATUS_MUTATION_ENABLED=true. ' +
    'A VC instance config that cannot be decrypted is 500 RECORD_UNREADABLE.',
  security: guarded,
  request: { params: PurposeParams, headers: ifVersionHeader, body: jsonBody(SetStatusBody, 'The bit to set', setStatusExample) },
  responses: {
    200: jsonResponse(StatusChangeSchema, 'The entry as observed after the change', statusChangeExample),
    ...pick(401, 413, 500),
    ...statusErrorResponses([
      ...ENTRY_WRITE_ERRORS,
      'STATUS_IRREVERSIBLE',
      'STATUS_RECOVERY_REQUIRED',
      'STATUS_OUTCOME_MISMATCH',
      'STATUS_MUTATION_DISABLED',
      'STATUS_LIST_BUSY',
      'STATUS_COORDINATION_UNAVAILABLE',
      'STATUS_OUTCOME_UNKNOWN',
      'STATUS_PERSISTENCE_FAILED',
      'STATUS_PERSISTENCE_UNCERTAIN',
    ]),
  },
});

export const registerSetCredentialStatus = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(setCredentialStatusRoute, async (c) => {
    const deps = statusDeps(c);
    const { id, purpose } = c.req.valid('param');
    const ifVersion = parseIfVersion(c.req.header('if-version'));
    const result = await changeStatus(deps, { tenantId: c.get('principal').tenantId, credentialId: id, purpose, value: c.req.valid('json').value, ifVersion });
    c.header('cache-control', 'no-store');
    return c.json(toChangeResponse(result), 200);
  });
