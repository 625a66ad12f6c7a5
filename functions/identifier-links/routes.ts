import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteLink, getLink, listLinks, publishLinks, updateLink } from '../../core/identifier-links/link-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import {
  IdentifierParam,
  LinkDetailSchema,
  LinkParams,
  LinkRecordSchema,
  PublishLinksBody,
  toLinkRecordResponse,
  UpdateLinkBody,
} from './schemas.ts';

const tags = ['Identifier links'];
const deps = (c: Context<AppEnv>) => {
  const { db, secretBox, fetcher, settings } = c.get('services');
  return { db, box: secretBox, fetcher, allowPrivateUrls: settings.allowPrivateUrls };
};
const upstream = {
  422: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'IDR_REJECTED: the resolver refused the link'),
  502: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'IDR_UNAVAILABLE: the resolver failed or timed out'),
};

const publishRoute = createRoute({
  method: 'post',
  path: '/{id}/links',
  tags,
  summary: 'Publish links for one of the tenant’s identifiers to its identity resolver',
  description:
    'The resolver is the scheme’s IDR instance, else the registrar’s, else the tenant’s primary IDR instance, else the ' +
    'system default. Any 400 names the field and publishes nothing. The registrar and scheme namespaces must already ' +
    'be registered with the resolver. Each published link is recorded locally.',
  security: guarded,
  request: { params: IdentifierParam, body: jsonBody(PublishLinksBody) },
  responses: { 201: jsonResponse(z.array(LinkRecordSchema), 'The local records, one per link'), ...pick(400, 401, 403, 404, 413, 500), ...upstream },
});
const listRoute = createRoute({
  method: 'get',
  path: '/{id}/links',
  tags,
  summary: 'Link registration records of one of the tenant’s identifiers, newest first',
  security: guarded,
  request: { params: IdentifierParam, query: z.object(pageQuerySchema) },
  responses: { 200: jsonResponse(listEnvelopeSchema(LinkRecordSchema), 'A page of records'), ...pick(400, 401, 403, 404, 500) },
});
const getRoute = createRoute({
  method: 'get',
  path: '/{id}/links/{linkId}',
  tags,
  summary: 'A published link: live resolver data with the local record',
  description: 'When the resolver no longer has the link, `link` is null and `desync: true` and a `warning` are added.',
  security: guarded,
  request: { params: LinkParams },
  responses: { 200: jsonResponse(LinkDetailSchema, 'The link'), ...pick(401, 403, 404, 500), 502: upstream[502] },
});
const updateRoute = createRoute({
  method: 'patch',
  path: '/{id}/links/{linkId}',
  tags,
  summary: 'Change a published link upstream, then the local record',
  description: 'Same validation as publishing. 409 with `desync: true` when the resolver no longer has the link.',
  security: guarded,
  request: { params: LinkParams, body: jsonBody(UpdateLinkBody) },
  responses: { 200: jsonResponse(LinkRecordSchema, 'The updated local record'), ...pick(400, 401, 403, 404, 409, 413, 500), ...upstream },
});
const deleteRoute = createRoute({
  method: 'delete',
  path: '/{id}/links/{linkId}',
  tags,
  summary: 'Delete a published link upstream and locally',
  description: 'A link already gone upstream is still removed locally without error.',
  security: guarded,
  request: { params: LinkParams },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 500), 502: upstream[502] },
});

/** `/identifiers/{id}/links…`, registered on the identifiers group. */
export const registerIdentifierLinkRoutes = (app: OpenAPIHono<AppEnv>) => {
  app.openapi(publishRoute, async (c) => {
    const records = await publishLinks(deps(c), c.get('principal').tenantId, c.req.valid('param').id, c.req.valid('json'));
    return c.json(records.map(toLinkRecordResponse), 201);
  });
  app.openapi(listRoute, async (c) => {
    const page = parsePage(c.req.valid('query'), c.get('services').settings);
    const { rows, total } = await listLinks(deps(c), c.get('principal').tenantId, c.req.valid('param').id, page);
    return c.json(listEnvelope(rows.map(toLinkRecordResponse), total, page), 200);
  });
  app.openapi(getRoute, async (c) => {
    const { id, linkId } = c.req.valid('param');
    const found = await getLink(deps(c), c.get('principal').tenantId, id, linkId);
    return c.json({ ...found, link: found.link as Record<string, unknown> | null, localRecord: toLinkRecordResponse(found.localRecord) }, 200);
  });
  app.openapi(updateRoute, async (c) => {
    const { id, linkId } = c.req.valid('param');
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateLinkBody.shape));
    const record = await updateLink(deps(c), c.get('principal').tenantId, id, linkId, patch);
    return c.json(toLinkRecordResponse(record), 200);
  });
  app.openapi(deleteRoute, async (c) => {
    const { id, linkId } = c.req.valid('param');
    await deleteLink(deps(c), c.get('principal').tenantId, id, linkId);
    return c.body(null, 204);
  });
};
