import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSchemeDocument } from '../../core/conformity/scheme-document.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

const SCHEME = 'https://schemes.example.org/responsible-batteries';
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

describe('conformity catalogue errors', () => {
  it('400 for missing or blank ids, repeated parameters, bad limits', async () => {
    for (const path of ['/api/v1/cvc/profiles', '/api/v1/cvc/profiles?schemeId=%20', '/api/v1/cvc/criteria', '/api/v1/cvc/criteria?profileId=']) {
      const res = await t.call('GET', path, { token });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatch(/^(schemeId|profileId): is required/);
    }
    for (const path of ['/api/v1/cvc/schemes?limit=100000', '/api/v1/cvc/schemes?limit=1.5', '/api/v1/cvc/schemes?offset=-1', `/api/v1/cvc/profiles?schemeId=${encodeURIComponent(SCHEME)}&schemeId=x`]) {
      expect((await t.call('GET', path, { token })).status, path).toBe(400);
    }
  });

  it('documents that are not conformity schemes are refused with the failing path', () => {
    expect(() => parseSchemeDocument('x.json', '{"id":"https://a","name":"A"}')).toThrow(/x\.json: not a conformity scheme document/);
    expect(() => parseSchemeDocument('x.json', '{"id":"ftp://a","name":"A","includedProfile":[]}')).toThrow(/\/id/);
    expect(() => parseSchemeDocument('x.json', 'nope')).toThrow(/not valid JSON/);
  });
});

