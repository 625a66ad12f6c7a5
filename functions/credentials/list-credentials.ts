import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listCredentials } from '../../core/credentials/credential-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, parsePage } from '../platform/pagination.ts';
import { CredentialListItemSchema, CredentialListQuery, toCredentialListItem } from './schemas.ts';

export const listCredentialsRoute = createRoute({
  method: 'get',
  operationId: 'listCredentials',
  path: '/',
  tags: ['Credentials'],
  summary: "List the tenant's issued credentials, newest first",
  description: 'Filters: credentialType, version, organisationId, facilityId, productId, isPublished (true or false). Items carry no decryption key; get one record for it.',
  security: guarded,
  request: { query: CredentialListQuery },
  responses: {
    200: jsonResponse(listEnvelopeSchema(CredentialListItemSchema), 'A page of credentials'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListCredentials = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listCredentialsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const { limit, offset, ...filter } = c.req.valid('query');
    const page = parsePage({ limit, offset }, settings);
    const { rows, total } = await listCredentials(db, c.get('principal').tenantId, filter, page);
    return c.json(listEnvelope(rows.map(toCredentialListItem), total, page), 200);
  });
