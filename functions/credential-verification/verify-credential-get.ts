import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/env.ts';
import { VerifyQuery, verifyResponses } from './schemas.ts';
import { verificationResponse } from './verification-response.ts';

export const verifyCredentialGetRoute = createRoute({
  method: 'get',
  operationId: 'verifyCredentialGet',
  path: '/',
  tags: ['Credential verification'],
  summary: 'Verify a stored credential, named by query parameters (public, no session or token)',
  description: 'The same verification as POST, with `uri`, `digestMultibase`, `hash` and `decryptionKey` as query parameters. Prefer POST when sending a decryptionKey: query strings end up in logs along the way.',
  security: [],
  request: { query: VerifyQuery },
  responses: verifyResponses,
});

export const registerVerifyCredentialGet = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(verifyCredentialGetRoute, async (c) => verificationResponse(c, c.req.valid('query')));
