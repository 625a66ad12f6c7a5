import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from '../core/logging/logger.ts';
import { registerApiDocsPage, type SwaggerUiFiles } from '../core/service-kit/api-docs-page.ts';
import { apiKeyChecker } from '../core/service-kit/api-key.ts';
import { findByCorrelation, isIndexName, listCorrelated, MAX_LISTED, recordCorrelation } from './correlation-index.ts';
import { StorageError } from './errors.ts';
import type { ObjectStore } from './object-store.ts';
import { registerStorageDocs, STORAGE_API_TITLE } from './openapi.ts';
import type { StorageSettings } from './settings.ts';
import { parseUploadRequest } from './upload-request.ts';
import { assertConfiguredBucket, isUuid, storeUpload, type ApiVersion, type Visibility } from './uploads.ts';

export const API_VERSIONS: ApiVersion[] = ['3.0.0', 'v4'];
const CORRELATION_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Object names: safe characters, and short enough for every backend's key and file-name limits. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

interface StorageEnv {
  /** tracedId: the caller's own correlation id, when it sent one (what uploads are indexed under). */
  Variables: { correlationId: string; tracedId: string | undefined };
}

const message = (c: Context, status: StorageError['status'], text: string) => c.json({ message: text }, status);

/**
 * The storage service: `/api/3.0.0` (hex `hash`) and `/api/v4` (`digestMultibase`) from one code
 * base, over any `ObjectStore`. Writes need `X-API-Key`; reads are open (content is public or encrypted).
 * `swaggerUiFiles`: Swagger UI's files for `/api-docs`, read from the pinned package by the Node entry; an
 * edge deployment passes none and serves them as static assets at the same path.
 */
export const buildStorageApp = (deps: { settings: StorageSettings; store: ObjectStore; logger: Logger; swaggerUiFiles?: SwaggerUiFiles }) => {
  const { settings, store, logger } = deps;
  const app = new OpenAPIHono<StorageEnv>();

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-correlation-id');
    const id = incoming && CORRELATION_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('correlationId', id);
    c.set('tracedId', id === incoming ? id : undefined);
    // Set before the handler runs: a header added to a finished response makes Hono rebuild it as a
    // stream, which costs more than the rest of a small read.
    c.header('x-correlation-id', id);
    const started = performance.now();
    await next();
    logger.debug('request', { correlationId: id, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) });
  });

  const isValidKey = apiKeyChecker(settings.apiKey);
  const requireApiKey: MiddlewareHandler<StorageEnv> = async (c, next) => {
    const key = c.req.header('x-api-key');
    if (!key) return message(c, 401, 'API key is required. Please provide a valid API key in the X-API-Key header.');
    if (!isValidKey(key)) return message(c, 401, 'Invalid API key. Please provide a valid API key.');
    await next();
  };

  app.get('/health-check', (c) => c.text('OK'));

  // Our own route: every object stored under a correlation id in one bucket, a page at a time (the orphan sweep).
  app.get('/api/correlations', requireApiKey, async (c) => {
    const bucket = c.req.query('bucket') ?? '';
    assertConfiguredBucket(settings, bucket);
    const after = c.req.query('after') ?? '';
    const limit = Number(c.req.query('limit') ?? MAX_LISTED);
    if (after.length > 400) return message(c, 400, 'Invalid after. It must be the next value of the previous page.');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LISTED) return message(c, 400, `Invalid limit. It must be an integer from 1 to ${MAX_LISTED}.`);
    return c.json(await listCorrelated(store, bucket, after, limit), 200);
  });

  // Our own route (not upstream's): what was stored under one correlation id, for the operator's trace of a batch item.
  app.get('/api/correlations/:id', requireApiKey, async (c) => {
    const id = c.req.param('id');
    if (!CORRELATION_ID.test(id)) return message(c, 400, 'Invalid correlation id. It must be 1 to 128 letters, digits, _ or -.');
    return c.json({ correlationId: id, objects: await findByCorrelation(store, settings.buckets, id) }, 200);
  });

  for (const version of API_VERSIONS) {
    const base = `/api/${version}`;
    for (const visibility of ['public', 'private'] as Visibility[]) {
      app.post(`${base}/${visibility}`, requireApiKey, async (c) => {
        const upload = await parseUploadRequest(c.req.raw, settings);
        const { answer, bucket, key } = await storeUpload(store, settings, version, visibility, upload);
        const traced = c.get('tracedId');
        if (traced) await recordCorrelation(store, traced, { uri: answer.uri, bucket, key, visibility, storedAt: new Date().toISOString() });
        logger.info('stored', { correlationId: c.get('correlationId'), uri: answer.uri, visibility });
        return c.json(answer, 201);
      });
    }

    app.delete(`${base}/:bucket/:id`, requireApiKey, async (c) => {
      const { bucket, id } = c.req.param();
      assertConfiguredBucket(settings, bucket);
      if (!isUuid(id)) return message(c, 400, `Invalid id ${id}. Please provide a valid UUID.`);
      const keys = await store.list(bucket, id);
      if (keys.length === 0) return message(c, 404, `Resource with id ${id} not found in bucket ${bucket}.`);
      await store.remove(bucket, keys);
      logger.info('deleted', { correlationId: c.get('correlationId'), bucket, keys });
      return c.body(null, 204);
    });

    app.get(`${base}/:bucket/:file`, async (c) => {
      const { bucket, file } = c.req.param();
      if (!settings.buckets.includes(bucket) || !SAFE_NAME.test(file) || file.includes('..') || isIndexName(file)) {
        return message(c, 404, 'Not found.');
      }
      const found = await store.get(bucket, file);
      if (!found) return message(c, 404, 'Not found.');
      const headers: Record<string, string> = {
        'content-type': found.contentType === 'application/json' ? 'application/json; charset=utf-8' : found.contentType,
        etag: found.etag,
        'last-modified': found.lastModified.toUTCString(),
        'cache-control': 'no-cache',
      };
      const conditional = c.req.header('if-none-match');
      const notModified = conditional && found.etag && conditional.split(',').some((tag) => tag.trim() === found.etag || tag.trim() === '*');
      // Hono answers HEAD with its GET route and drops the body: the raw request still says HEAD.
      const sendsBody = !notModified && c.req.raw.method !== 'HEAD';
      // A stream that will not be sent is closed now (it holds a file or a connection).
      if (!sendsBody && found.body instanceof ReadableStream) await found.body.cancel();
      if (notModified) return c.body(null, 304, headers);
      if (found.size !== undefined) headers['content-length'] = String(found.size);
      if (!sendsBody) return c.body(null, 200, headers);
      return c.body(found.body as Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array<ArrayBuffer>>, 200, headers);
    });
  }

  registerStorageDocs(app, settings);
  registerApiDocsPage(app, { title: STORAGE_API_TITLE, files: deps.swaggerUiFiles });

  app.notFound((c) => message(c, 404, 'Not found.'));
  app.onError((error, c) => {
    if (error instanceof StorageError) return message(c, error.status, error.message);
    logger.error('Unhandled error', { correlationId: c.get('correlationId'), path: c.req.path, error: String(error) });
    return message(c, 500, 'An unexpected error occurred.');
  });
  return app;
};
