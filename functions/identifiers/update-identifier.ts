import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findIdentifier, updateIdentifierValue } from '../../core/identifiers/identifier-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { IdentifierWithSchemeSchema, toIdentifierWithSchemeResponse } from '../platform/embedded/identifier.ts';
import { IdentifierIdParam, UpdateIdentifierBody } from './schemas.ts';

export const updateIdentifierRoute = createRoute({
  method: 'patch',
  operationId: 'updateIdentifier',
  path: '/{id}',
  tags: ['Identifiers'],
  summary: 'Change the value of one of the tenant’s identifiers',
  description:
    "The new value is re-validated against the scheme's validationPattern (400) and must be unique within " +
    'the scheme (409). The scheme cannot be changed.',
  security: guarded,
  request: { params: IdentifierIdParam, body: jsonBody(UpdateIdentifierBody) },
  responses: {
    200: jsonResponse(IdentifierWithSchemeSchema, 'The updated identifier with its scheme'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerUpdateIdentifier = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateIdentifierRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const { value } = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateIdentifierBody.shape));
    await updateIdentifierValue(db, tenantId, id, value!);
    const row = await findIdentifier(db, tenantId, id);
    return c.json(toIdentifierWithSchemeResponse(row!), 200);
  });
