import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { updateLink } from '../../core/identifier-links/update-link.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { LinkParams, LinkRecordSchema, linkTags, toLinkRecordResponse, UpdateLinkBody, upstreamResponses } from './schemas.ts';

export const updateLinkRoute = createRoute({
  method: 'patch',
  operationId: 'updateLink',
  path: '/{id}/links/{linkId}',
  tags: linkTags,
  summary: 'Change a published link upstream and in the local record, both or neither',
  description:
    'Same validation as publishing. 409 with `desync: true` when the resolver no longer has the link; 409 ' +
    '`LINK_ALREADY_PUBLISHED` when the change makes it equal to another link of its document.',
  security: guarded,
  request: { params: LinkParams, body: jsonBody(UpdateLinkBody) },
  responses: { 200: jsonResponse(LinkRecordSchema, 'The updated local record'), ...pick(400, 401, 403, 404, 409, 413, 500), ...upstreamResponses },
});

export const registerUpdateLink = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateLinkRoute, async (c) => {
    const { id, linkId } = c.req.valid('param');
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateLinkBody.shape));
    const record = await updateLink(requestDeps(c), c.get('principal').tenantId, id, linkId, patch);
    return c.json(toLinkRecordResponse(record), 200);
  });
