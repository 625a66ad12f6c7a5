import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistrar, createScheme } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

/** Tenant patterns run on RE2: what it cannot compile is refused, catastrophic patterns finish at once. */
let t: TestApp;
let token: string;
let registrarId: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  registrarId = (await createRegistrar(t, token)).id;
});
afterAll(() => t.close());

const schemeBody = (overrides: Record<string, unknown>) => ({
  registrarId,
  name: 'Patterned',
  primaryKey: `k${Math.random().toString(36).slice(2, 10)}`,
  validationPattern: '^x$',
  linkTemplate: '/{primaryKey}/{value}',
  ...overrides,
});

describe('patterns RE2 cannot compile are refused, naming the field and RE2 reason', () => {
  it.each([
    ['lookahead', '(?=a)b', 'Perl syntax'],
    ['backreference', '(a)\\1', 'escape'],
    ['repeat count over 1000', 'a{1001}', 'repeat count'],
  ])('%s on create', async (_, pattern, reason) => {
    const res = await t.call('POST', '/api/v1/schemes', { token, body: schemeBody({ validationPattern: pattern }) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatch(/^validationPattern: must be a valid regular expression in RE2 syntax/);
    expect(res.body.error).toContain(reason);
  });

  it('an RE2-only form JavaScript cannot compile is refused too (resolvers and clients receive patterns)', async () => {
    const res = await t.call('POST', '/api/v1/schemes', { token, body: schemeBody({ validationPattern: '(?i)abc' }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^validationPattern: must be a valid regular expression in JavaScript syntax too/);
  });

  it('a qualifier pattern on create and a pattern on PATCH', async () => {
    const qualifier = { key: '10', description: 'Batch', validationPattern: '(?<!x)y' };
    const created = await t.call('POST', '/api/v1/schemes', { token, body: schemeBody({ qualifiers: [qualifier] }) });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatch(/^qualifiers\[0\]\.validationPattern: must be a valid regular expression in RE2/);
    const scheme = await createScheme(t, token, { registrarId, primaryKey: 'patch-me' });
    const patched = await t.call('PATCH', `/api/v1/schemes/${scheme.id}`, { token, body: { validationPattern: '\\bx(?!y)' } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatch(/^validationPattern: must be a valid regular expression in RE2/);
  });
});

describe('catastrophic patterns evaluate in linear time', () => {
  it.each([
    ['^(a+)+$', `${'a'.repeat(30)}!`],
    ['^(a|aa)+$', `${'a'.repeat(40)}!`],
    ['^(.*a){20}$', `${'a'.repeat(30)}!`],
  ])('%s against a hostile value is a quick 400, and the health check answers meanwhile', { timeout: 4000 }, async (pattern, value) => {
    const scheme = await createScheme(t, token, { registrarId, primaryKey: `c${pattern.length}${value.length}`, validationPattern: pattern, qualifiers: [] });
    const [res, health] = await Promise.all([
      t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: scheme.id, value } }),
      t.call('GET', '/api/health'),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("value: must match the scheme's validationPattern");
    expect(health.status).toBe(200);
  });

  it('the same patterns still accept matching values', async () => {
    const scheme = await createScheme(t, token, { registrarId, primaryKey: 'ok-a', validationPattern: '^(a+)+$', qualifiers: [] });
    const res = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: scheme.id, value: 'aaaa' } });
    expect(res.status, res.text).toBe(201);
  });
});
