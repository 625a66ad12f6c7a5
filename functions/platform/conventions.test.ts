import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrars } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import type { AppEnv } from './env.ts';
import { applyPlatform, staticServices } from './with-platform.ts';

const LIST = '/api/v1/registrars';
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ env: { MAX_REQUEST_BODY_BYTES: '2048' } });
  token = await t.token('tenantA');
});
afterAll(() => t.close());

describe('request bodies', () => {
  it('400 "Invalid JSON body" for unparseable JSON, with nothing written', async () => {
    const before = (await t.db.select().from(registrars)).length;
    for (const rawBody of ['{"name": "GS1",', 'not json', '{"a":1}}']) {
      const res = await t.call('POST', LIST, { token, rawBody });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid JSON body', code: 'INVALID_JSON' });
    }
    expect((await t.db.select().from(registrars)).length).toBe(before);
  });

  it('413 REQUEST_BODY_TOO_LARGE above MAX_REQUEST_BODY_BYTES, with or without content-length', async () => {
    const big = { name: 'x'.repeat(4000), namespace: 'gs1', url: 'https://gs1.org' };
    const res = await t.call('POST', LIST, { token, body: big });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('REQUEST_BODY_TOO_LARGE');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
        controller.close();
      },
    });
    const chunked = await fetch(`${t.url}${LIST}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('415 naming the content type when the body is not JSON', async () => {
    const res = await t.call('POST', LIST, { token, rawBody: 'name=GS1', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.error).toContain('Content-Type');
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('pagination', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1e1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['limit=%2B5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['offset=', 'offset'],
    ['offset=99999999999999999999', 'offset'],
  ])('400 naming the parameter for %s', async (query, field) => {
    const res = await t.call('GET', `${LIST}?${query}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error.startsWith(`${field}: `)).toBe(true);
  });

  it('400 naming the maximum for a limit above it', async () => {
    expect((await t.call('GET', `${LIST}?limit=100`, { token })).status).toBe(200);
    const res = await t.call('GET', `${LIST}?limit=101`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('limit: must not exceed the maximum of 100');
  });

  it('400 naming a repeated query parameter', async () => {
    const res = await t.call('GET', `${LIST}?limit=5&limit=6`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('limit: query parameter must not be repeated');
  });

  it('API_MAX_PAGE_LIMIT below 20 lowers the default page size', async () => {
    const small = await startTestApp({ env: { API_MAX_PAGE_LIMIT: '5' } });
    try {
      const res = await small.call('GET', LIST, { token: await small.token('tenantA') });
      expect(res.body.pagination.limit).toBe(5);
      const over = await small.call('GET', `${LIST}?limit=6`, { token: await small.token('tenantA') });
      expect(over.body.error).toContain('maximum of 5');
    } finally {
      await small.close();
    }
  });
});

describe('correlation ids', () => {
  it('echoes a well-formed inbound x-correlation-id and makes one otherwise', async () => {
    const echoed = await t.call('GET', LIST, { token, headers: { 'x-correlation-id': 'abc_DEF-123' } });
    expect(echoed.headers.get('x-correlation-id')).toBe('abc_DEF-123');
    const replaced = await t.call('GET', LIST, { token, headers: { 'x-correlation-id': 'bad id; drop table' } });
    expect(replaced.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unauthenticated = await t.call('GET', LIST);
    expect(unauthenticated.headers.get('x-correlation-id')).toBeTruthy();
    const tooLong = await t.call('GET', '/api/health', { headers: { 'x-correlation-id': 'a'.repeat(129) } });
    expect(tooLong.headers.get('x-correlation-id')).not.toBe('a'.repeat(129));
  });

  it('carries the id on every kind of response: JSON, HTML, redirect, 404, 400 and the OpenAPI document', async () => {
    const headers = { 'x-correlation-id': 'kinds-1' };
    for (const [path, status] of [
      [LIST, 200],
      ['/api-docs', 200],
      ['/api-docs/openapi.json', 200],
      ['/', 302],
      ['/api/v1/no-such-group', 404],
      [`${LIST}?limit=1&limit=2`, 400],
    ] as const) {
      const response = await t.call('GET', path, { token, headers });
      expect(response.status, path).toBe(status);
      expect(response.headers.get('x-correlation-id'), path).toBe('kinds-1');
    }
  });
});

describe('unexpected errors', () => {
  it('500 with a fixed message quoting the correlation id, never internals', async () => {
    const app = new OpenAPIHono<AppEnv>();
    applyPlatform(app, staticServices({ ...t.services, logger: { ...t.services.logger, error: () => {} } }), '/api/v1');
    app.get('/boom', () => {
      throw new Error('password=hunter2 at db.internal:5432');
    });
    const res = await app.request('/boom', { headers: { 'x-correlation-id': 'trace-500' } });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string; code: string };
    expect(body.error).toBe(
      'An unexpected error has occurred. If the issue persists, please contact support and quote correlation id "trace-500".',
    );
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(res.headers.get('x-correlation-id')).toBe('trace-500');
  });
});

describe('unknown routes and public routes', () => {
  it('an unknown path under /api/v1 needs authentication first, then is a 404 error body', async () => {
    expect((await t.call('GET', '/api/v1/nothing-here')).status).toBe(401);
    const res = await t.call('GET', '/api/v1/nothing-here', { token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('the guarded prefix covers /api/v1 itself and the paths below it, not a path that merely starts with its letters', async () => {
    expect((await t.call('GET', '/api/v1')).status).toBe(401);
    expect((await t.call('GET', '/api/v1/')).status).toBe(401);
    const lookalike = await t.call('GET', '/api/v1x/registrars');
    expect(lookalike.status).toBe(404);
    expect(lookalike.body.code).toBe('NOT_FOUND');
  });

  it('GET /api/health is public and checks the database', async () => {
    const res = await t.call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
  });

  it('/api/v1/credentials/verify needs no token (the route arrives with issuance)', async () => {
    const res = await t.call('GET', '/api/v1/credentials/verify');
    expect(res.status).not.toBe(401);
  });
});

describe('API documentation', () => {
  it('serves Swagger UI and an OpenAPI document with both security schemes and the registrar routes', async () => {
    const ui = await t.call('GET', '/api-docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
    const doc = await t.call('GET', '/api-docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'css_session' },
    });
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/registrars', '/api/v1/registrars/{id}', '/api/health']),
    );
    expect(doc.body.paths['/api/v1/registrars'].post.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(doc.body.components.schemas.ErrorResponse).toBeDefined();
  });
});
