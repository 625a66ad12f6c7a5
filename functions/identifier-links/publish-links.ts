import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { publishLinks } from '../../core/identifier-links/publish-links.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { publishedLinksExample, publishLinksExample } from './openapi-examples.ts';
import { IdentifierParam, LinkRecordSchema, linkTags, PublishLinksBody, toLinkRecordResponse, upstreamResponses } from './schemas.ts';

export const publishLinksRoute = createRoute({
  method: 'post',
  operationId: 'publishLinks',
  path: '/{id}/links',
  tags: linkTags,
  summary: 'Publish links for one of the tenant’s identifiers to its identity resolver',
  description:
    'The resolver is the scheme’s IDR instance, else the registrar’s, else the tenant’s primary IDR instance, else the ' +
    'system default. Any 400 names the field and publishes nothing: the qualifier path must use the scheme’s qualifier ' +
    'keys (numeric) with matching values and is stored in the scheme’s order; two links of one request may not share ' +
    'href, rel and type; `predecessor-version` is the resolver’s own rel. 409 `LINK_ALREADY_PUBLISHED` names a link the ' +
    'resolver document already has; 409 `IDR_DOCUMENT_OWNED` when another tenant’s links are live in that document. ' +
    'Without `description` the document keeps the one the resolver holds. The registrar and scheme namespaces must ' +
    'already be registered with the resolver. Each published link is recorded locally.',
  security: guarded,
  request: { params: IdentifierParam, body: jsonBody(PublishLinksBody, 'The links to publish at the identifier (and qualifier path)', publishLinksExample) },
  responses: {
    201: jsonResponse(z.array(LinkRecordSchema), 'The local records, one per link', publishedLinksExample),
    ...pick(400, 401, 403, 404, 409, 413, 500),
    ...upstreamResponses,
  },
});

export const registerPublishLinks = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(publishLinksRoute, async (c) => {
    const records = await publishLinks(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id, c.req.valid('json'));
    return c.json(records.map(toLinkRecordResponse), 201);
  });
