import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../rig/test-app.ts';

/** NUL and unpaired surrogates are refused in one place, before PostgreSQL sees them, naming where. */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const expect400 = (res: { status: number; body: { error: string; code?: string } }, message: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ error: message, code: 'VALIDATION_FAILED' });
};
const UNSTORABLE = 'must not contain NUL characters or invalid Unicode';

describe('path parameters', () => {
  it.each(['a%00b', '%ED%A0%80', '%FF'])('GET /api/v1/registrars/%s names id', async (id) => {
    const res = await t.call('GET', `/api/v1/registrars/${id}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^id: /);
  });

  it('a second path parameter is named too', async () => {
    const res = await t.call('DELETE', '/api/v1/identifiers/some-id/links/x%00y', { token });
    expect400(res, `linkId: ${UNSTORABLE}`);
  });
});

describe('query parameters', () => {
  it('NUL in a query value names the parameter', async () => {
    expect400(await t.call('GET', '/api/v1/organisations?search=a%00', { token }), `search: ${UNSTORABLE}`);
  });

  it('invalid UTF-8 in a query value decodes to U+FFFD (valid text), so it is searched for', async () => {
    expect((await t.call('GET', '/api/v1/organisations?search=%ED%A0%80x', { token })).status).toBe(200);
  });
});

describe('JSON strings and keys', () => {
  it('NUL in a top-level string', async () => {
    const res = await t.call('POST', '/api/v1/registrars', { token, rawBody: '{"name":"a\\u0000b","namespace":"n","url":"https://e.com"}' });
    expect400(res, `name: ${UNSTORABLE}`);
  });

  it('in the body of a PATCH too (every method that carries a body is checked), and nothing is written', async () => {
    const made = await t.call('POST', '/api/v1/registrars', { token, body: { name: 'Kept', namespace: 'kept-nul', url: 'https://e.com' } });
    const res = await t.call('PATCH', `/api/v1/registrars/${made.body.id}`, { token, rawBody: '{"name":"a\\u0000b"}' });
    expect400(res, `name: ${UNSTORABLE}`);
    expect((await t.call('GET', `/api/v1/registrars/${made.body.id}`, { token })).body.name).toBe('Kept');
  });

  it('a lone surrogate deep in an array of objects', async () => {
    const rawBody = '[{"name":"ok","location":{"lines":["x","\\ud800"]}}]';
    expect400(await t.call('POST', '/api/v1/organisations', { token, rawBody }), `[0].location.lines[1]: ${UNSTORABLE}`);
  });

  it('a lone low surrogate in a key', async () => {
    const rawBody = '[{"name":"ok","location":{"\\udc00":1}}]';
    expect400(await t.call('POST', '/api/v1/organisations', { token, rawBody }), `[0].location: a key ${UNSTORABLE}`);
  });

  it('a paired surrogate (an emoji) is fine', async () => {
    const res = await t.call('POST', '/api/v1/registrars', { token, rawBody: '{"name":"\\ud83d\\ude00","namespace":"n","url":"https://e.com"}' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe('\u{1F600}');
  });

  it('JSON nested 10,000 deep is a 400, not a stack overflow', async () => {
    const rawBody = `[{"name":"ok","location":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}]`;
    const res = await t.call('POST', '/api/v1/organisations', { token, rawBody });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/must not nest deeper than 64 levels$/);
  });
});
