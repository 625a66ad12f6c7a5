import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '../../core/text-limits.ts';
import { createRegistrar } from '../rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../rig/test-app.ts';

/** Every text field has a maximum, checked before the database and published as maxLength. */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const MEGABYTE = 'x'.repeat(1_000_000);

const expectTooLong = (res: { status: number; body: { error: string } }, field: string, max: number) => {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
  expect(res.body.error).toBe(`${field}: must be at most ${max} characters`);
};

describe('over-long text is a 400 naming the field and the limit', () => {
  it('a 1 MB registrar name, a 2049-character URL', async () => {
    expectTooLong(await t.call('POST', '/api/v1/registrars', { token, body: { name: MEGABYTE, namespace: 'n', url: 'https://example.com' } }), 'name', TEXT_LIMITS.name);
    const url = `https://example.com/${'p'.repeat(2030)}`;
    expectTooLong(await t.call('POST', '/api/v1/registrars', { token, body: { name: 'n', namespace: 'n', url } }), 'url', TEXT_LIMITS.url);
  });

  it('a 1 MB scheme primaryKey and a too-long pattern', async () => {
    const { id: registrarId } = await createRegistrar(t, token);
    const body = { registrarId, name: 'S', primaryKey: MEGABYTE, validationPattern: '^x$', linkTemplate: '/{primaryKey}/{value}' };
    expectTooLong(await t.call('POST', '/api/v1/schemes', { token, body }), 'primaryKey', TEXT_LIMITS.name);
    const longPattern = { ...body, primaryKey: '01', validationPattern: 'a'.repeat(TEXT_LIMITS.pattern + 1) };
    expectTooLong(await t.call('POST', '/api/v1/schemes', { token, body: longPattern }), 'validationPattern', TEXT_LIMITS.pattern);
  });

  it('an organisation description and a search term', async () => {
    const body = [{ name: 'Org', description: 'd'.repeat(TEXT_LIMITS.description + 1) }];
    expectTooLong(await t.call('POST', '/api/v1/organisations', { token, body }), '[0].description', TEXT_LIMITS.description);
    expectTooLong(await t.call('GET', `/api/v1/organisations?search=${'q'.repeat(TEXT_LIMITS.name + 1)}`, { token }), 'search', TEXT_LIMITS.name);
  });

  it('a name at the limit is stored', async () => {
    const res = await t.call('POST', '/api/v1/registrars', { token, body: { name: '\u{1F600}'.repeat(TEXT_LIMITS.name / 2), namespace: 'n', url: 'https://example.com' } });
    expect(res.status, res.text).toBe(201);
  });
});

describe('OpenAPI shows each maxLength', () => {
  it('names, URLs, descriptions, patterns and link fields', async () => {
    const doc = (await t.call('GET', '/api-docs/openapi.json')).body;
    const props = (name: string) => doc.components.schemas[name].properties;
    expect(props('CreateRegistrar')?.name.maxLength ?? undefined).toBe(TEXT_LIMITS.name);
    expect(props('CreateRegistrar').url.maxLength).toBe(TEXT_LIMITS.url);
    expect(props('CreateIdentifierScheme').validationPattern.maxLength).toBe(TEXT_LIMITS.pattern);
    expect(props('QualifierInput').description.maxLength).toBe(TEXT_LIMITS.description);
    const strings: { path: string; maxLength?: number }[] = [];
    const seen = new Set<unknown>();
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const schema = node as Record<string, unknown>;
      if (typeof schema.$ref === 'string') return walk(doc.components.schemas[schema.$ref.split('/').pop()!], schema.$ref);
      if (schema.type === 'string' && !schema.enum && !schema.format) strings.push({ path, maxLength: schema.maxLength as number | undefined });
      for (const [key, value] of Object.entries(schema)) walk(value, `${path}.${key}`);
    };
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: unknown }>>)) {
      for (const [method, op] of Object.entries(item)) walk(op.requestBody, `${method} ${path}`);
    }
    expect(strings.length).toBeGreaterThan(30);
    expect(strings.filter((s) => s.maxLength === undefined).map((s) => s.path)).toEqual([]);
  });
});
