import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findCredential } from '../../core/credentials/credential-repository.ts';
import { notFound } from '../../core/errors.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { credentialIdOf, CredentialIdParam, CredentialSchema, toCredentialResponse } from './schemas.ts';

export const getCredentialRoute = createRoute({
  method: 'get',
  operationId: 'getCredential',
  path: '/{id}',
  tags: ['Credentials'],
  summary: 'Get an issued credential record, with its storage location, digest, decryption key and status entries',
  description: 'decryptionKey is the key of an encrypted stored copy and null for one stored in the clear. A foreign id is the 404 of a missing one.',
  security: guarded,
  request: { params: CredentialIdParam },
  responses: {
    200: jsonResponse(CredentialSchema, 'The credential record'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetCredential = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getCredentialRoute, async (c) => {
    const id = credentialIdOf(c.req.valid('param'));
    const { db, secretBox, settings } = c.get('services');
    const row = await findCredential(db, c.get('principal').tenantId, id);
    if (!row) throw notFound('Credential');
    const key = row.credential.wrappedDecryptionKey ? await secretBox.decrypt(row.credential.wrappedDecryptionKey) : null;
    c.header('cache-control', 'no-store');
    return c.json(toCredentialResponse(row, key, settings.appUrl), 200);
  });
