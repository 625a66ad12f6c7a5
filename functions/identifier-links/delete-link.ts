import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteLink } from '../../core/identifier-links/link-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { LinkParams, linkTags, upstreamResponses } from './schemas.ts';

export const deleteLinkRoute = createRoute({
  method: 'delete',
  operationId: 'deleteLink',
  path: '/{id}/links/{linkId}',
  tags: linkTags,
  summary: 'Delete a published link upstream and locally',
  description:
    'A link the resolver answers it does not have is still removed locally without error. When the resolver fails, ' +
    'refuses our credentials or is not at the configured URL (502), the local record is kept.',
  security: guarded,
  request: { params: LinkParams },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 500), 502: upstreamResponses[502] },
});

export const registerDeleteLink = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteLinkRoute, async (c) => {
    const { id, linkId } = c.req.valid('param');
    await deleteLink(requestDeps(c), c.get('principal').tenantId, id, linkId);
    return c.body(null, 204);
  });
