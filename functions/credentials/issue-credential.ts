import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { issuanceDeps } from '../../core/credentials/issuance-deps.ts';
import { IssuanceRequestSchema, parseIssuanceRequest } from '../../core/credentials/issuance-request.ts';
import { issueOnce } from '../../core/credentials/issue-once.ts';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from '../../core/idempotency/idempotency-key.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { issuedExample, issueRequestExample } from './openapi-examples.ts';
import { IssuedSchema } from './schemas.ts';

export const issueCredentialRoute = createRoute({
  method: 'post',
  operationId: 'issueCredential',
  path: '/',
  tags: ['Credentials'],
  summary: 'Issue a credential: validate, sign through the issuer DID’s VC service, store, record, optionally publish',
  description:
    'The payload is validated against every schema of the data model of credentialType and version and expanded as JSON-LD ' +
    '(400 SCHEMA_DOCUMENT_INVALID / JSONLD_DOCUMENT_INVALID with the JSON pointer). issuer (or issuer.id) must be a DID of the ' +
    'tenant or a system default DID (400 ISSUER_DID_NOT_REGISTERED). One status entry is minted per status purpose. The signed ' +
    'credential is stored encrypted unless storageOptions.encrypt is false. Publishing failures and conformity advisories are ' +
    'warnings. With an Idempotency-Key, the same body replays the first answer; a request still in flight is 409 ' +
    'IDEMPOTENCY_KEY_IN_FLIGHT; another body is 422 IDEMPOTENCY_KEY_MISMATCH.',
  security: guarded,
  request: {
    headers: z.object({
      [IDEMPOTENCY_HEADER.toLowerCase()]: z.string().optional().openapi({ description: 'Optional; printable ASCII, at most 255 characters', example: 'dpp-lot-42' }),
    }),
    body: jsonBody(IssuanceRequestSchema, 'The issuance request', issueRequestExample),
  },
  responses: {
    201: jsonResponse(IssuedSchema, 'The credential was issued', issuedExample),
    ...pick(400, 401, 403, 404, 409, 413, 422, 500, 502),
  },
});

export const registerIssueCredential = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(issueCredentialRoute, async (c) => {
    const services = c.get('services');
    const body = c.req.valid('json');
    const request = parseIssuanceRequest(body, services.settings.issuance);
    const key = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    const deps = issuanceDeps(services, c.get('correlationId'));
    const answer = await issueOnce(deps, c.get('principal').tenantId, request, key === undefined ? undefined : { key, body: await c.req.json(), staleAfterMinutes: services.settings.idempotencyStaleClaimMinutes });
    return c.json(answer, 201);
  });
