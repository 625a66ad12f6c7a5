import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { getLink } from '../../core/identifier-links/link-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { LinkDetailSchema, LinkParams, linkTags, toLinkRecordResponse, upstreamResponses } from './schemas.ts';

export const getLinkRoute = createRoute({
  method: 'get',
  operationId: 'getLink',
  path: '/{id}/links/{linkId}',
  tags: linkTags,
  summary: 'A published link: live resolver data with the local record',
  description:
    'When the resolver answers that it no longer has the link (or holds it deactivated), `link` is null and ' +
    '`desync: true` and a `warning` are added. Any other 404, a 401/403 or a failure of the resolver is 502.',
  security: guarded,
  request: { params: LinkParams },
  responses: { 200: jsonResponse(LinkDetailSchema, 'The link'), ...pick(401, 403, 404, 500), 502: upstreamResponses[502] },
});

export const registerGetLink = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getLinkRoute, async (c) => {
    const { id, linkId } = c.req.valid('param');
    const found = await getLink(requestDeps(c), c.get('principal').tenantId, id, linkId);
    return c.json({ ...found, link: found.link as Record<string, unknown> | null, localRecord: toLinkRecordResponse(found.localRecord) }, 200);
  });
