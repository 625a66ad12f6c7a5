import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody } from '../platform/openapi-responses.ts';
import { verifyRequestExample } from './openapi-examples.ts';
import { VerifyBody, verifyResponses } from './schemas.ts';
import { verificationResponse } from './verification-response.ts';

export const verifyCredentialPostRoute = createRoute({
  method: 'post',
  operationId: 'verifyCredentialPost',
  path: '/',
  tags: ['Credential verification'],
  summary: 'Verify a stored credential (public, no session or token)',
  description:
    'Fetches `uri` (public addresses only unless allowed, at most 3 redirects, time and size capped), decrypts the storage envelope with `decryptionKey`, ' +
    'compares `digestMultibase` / `hash`, requires an EnvelopedVerifiableCredential, verifies its proof and status through the system VC service, ' +
    'checks validFrom / validUntil and decodes it. Rate-limited per client and concurrency-limited (429 with Retry-After).',
  security: [],
  request: { body: jsonBody(VerifyBody, 'Where the credential is stored, and how to check it', verifyRequestExample) },
  responses: verifyResponses,
});

export const registerVerifyCredentialPost = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(verifyCredentialPostRoute, async (c) => verificationResponse(c, c.req.valid('json')));
