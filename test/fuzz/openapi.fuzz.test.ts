import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../rig/test-app.ts';
import { hostileBodies, hostileParams, mutateOneMember, pickOne, plausible, seededRandom, type Resolver } from './mutations.ts';

/**
 * Fuzz test generated from the app's own OpenAPI document: for every operation, mutated path
 * parameters, query parameters and bodies (wrong types, nulls, huge and deep values, NUL and lone
 * surrogates, duplicate and prototype keys, unparseable JSON, wrong content types), authenticated.
 * No answer may be a 5xx or take longer than 2 s. Deterministic (fixed seed), a few hundred requests.
 */
const SEED = 17;
const BODY_MUTATIONS_PER_OPERATION = 8;
const PARAM_MUTATIONS_PER_OPERATION = 4;
const SLOW_MS = 2_000;

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; schema?: unknown }[];
  body?: unknown;
}

let t: TestApp;
let token: string;
let operations: Operation[];
let resolve: Resolver;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  const doc = (await t.call('GET', '/api-docs/openapi.json')).body;
  resolve = (schema) => {
    let s = (schema ?? {}) as Record<string, unknown>;
    for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) s = doc.components.schemas[s.$ref.split('/').pop()!];
    return s;
  };
  operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []) as Operation['params'],
        body: (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']?.schema,
      })),
  );
});
afterAll(() => t.close());

interface Sent {
  label: string;
  status: number;
  ms: number;
}

const send = async (label: string, method: string, url: string, body?: { text: string; contentType: string }): Promise<Sent> => {
  const started = performance.now();
  const res = await fetch(`${t.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': body.contentType } : {}) },
    body: body?.text,
  });
  await res.arrayBuffer();
  return { label, status: res.status, ms: performance.now() - started };
};

const fillPath = (path: string, value: (name: string) => string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => value(name));

describe('OpenAPI fuzz', () => {
  it('every operation survives mutated parameters and bodies: no 5xx, none slower than 2 s', { timeout: 240_000 }, async () => {
    const random = seededRandom(SEED);
    const results: Sent[] = [];
    for (const op of operations) {
      const plain = fillPath(op.path, () => 'fuzz-id');
      const query = op.params.filter((p) => p.in === 'query');
      for (let i = 0; i < PARAM_MUTATIONS_PER_OPERATION; i++) {
        const pathValue = pickOne(random, hostileParams);
        const url = fillPath(op.path, () => pathValue);
        const qs = query.map((p) => `${encodeURIComponent(p.name)}=${pickOne(random, hostileParams)}`).join('&');
        const full = `${url}${qs ? `?${qs}` : ''}`;
        results.push(await send(`${op.method} ${full.slice(0, 120)}`, op.method, full));
      }
      if (query.length > 0) {
        const repeated = `${plain}?${query[0]!.name}=1&${query[0]!.name}=2&unknown%00=1`;
        results.push(await send(`${op.method} ${repeated}`, op.method, repeated));
      }
      if (!op.body) continue;
      const valid = plausible(op.body, resolve);
      for (let i = 0; i < BODY_MUTATIONS_PER_OPERATION; i++) {
        const mutated = mutateOneMember(valid, random);
        const text = JSON.stringify(mutated) ?? 'null';
        results.push(await send(`${op.method} ${plain} body ${text.slice(0, 120)}`, op.method, plain, { text, contentType: 'application/json' }));
      }
      for (const raw of hostileBodies(valid)) {
        results.push(await send(`${op.method} ${plain} ${raw.contentType} ${raw.text.slice(0, 80)}`, op.method, plain, raw));
      }
    }
    expect(operations.length).toBeGreaterThan(40);
    expect(results.length).toBeGreaterThan(500);
    expect(results.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.label}`)).toEqual([]);
    expect(results.filter((r) => r.ms > SLOW_MS).map((r) => `${Math.round(r.ms)} ms ${r.label}`)).toEqual([]);
  });
});
