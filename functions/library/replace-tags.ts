import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { assertValidTags } from '../../core/credentials/tags.ts';
import { badRequest } from '../../core/errors.ts';
import { loadRecordView } from '../../core/library/record-queries.ts';
import { findOwnRecord, replaceTags } from '../../core/library/record-writes.ts';
import type { AppEnv } from '../platform/env.ts';
import { parseIfVersion } from '../../core/validation/if-version.ts';
import { ifVersionHeader } from '../platform/if-version.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { CredentialRecordSchema, RecordIdParam, toCredentialRecord } from './schemas.ts';

/** Documented shape only: the body is checked after the record and the header (peer order: lookup → header → body → version). */
const ReplaceTagsBody = z
  .custom<Record<string, unknown>>(() => true)
  .openapi({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string', maxLength: 1000 } } }, required: ['tags'] });

export const replaceTagsRoute = createRoute({
  method: 'put',
  operationId: 'replaceTags',
  path: '/{id}/tags',
  tags: ['Library'],
  summary: "Replace a record's tags",
  description:
    'Full replacement (an empty array clears them); header `If-Version` = the current `tagVersion`. Always bumps `tagVersion` ' +
    'and `updatedAt`. Checked in this order: the record (404), the header (400 INVALID_IF_VERSION), the body (400), the version ' +
    '(409 VERSION_CONFLICT).',
  security: guarded,
  request: { params: RecordIdParam, headers: ifVersionHeader, body: jsonBody(ReplaceTagsBody) },
  responses: {
    200: jsonResponse(CredentialRecordSchema, 'The record with its new tags'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerReplaceTags = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(replaceTagsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    await findOwnRecord(db, tenantId, id);
    const version = parseIfVersion(c.req.header('if-version'));
    const body: unknown = await c.req.json().catch(() => undefined);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body: must be a JSON object');
    if (!('tags' in body)) throw badRequest('tags: is required');
    const tags = assertValidTags((body as { tags: unknown }).tags, settings.issuance);
    await replaceTags(db, tenantId, id, version, tags);
    return c.json(toCredentialRecord((await loadRecordView(db, tenantId, id))!), 200);
  });
