import { beforeAll, describe, expect, it } from 'vitest';
import { applySchemeDocuments } from '../../core/conformity/scheme-document.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

const OWN_SCHEME = 'https://tenant.example.com/own-scheme';
const OWN_PROFILE = 'https://tenant.example.com/own-scheme/profile/1';
const cvc = '/api/v1/cvc';
let t: TestApp;
let tokenA: string;
let tokenB: string;

const context = securitySuite({
  name: '/cvc',
  setup: async (app, a) => {
    await app.call('GET', `${cvc}/schemes`, { token: a });
    await applySchemeDocuments(app.db, await app.tenantOf('tenantA'), [
      { id: OWN_SCHEME, name: 'Own scheme', includedProfile: [{ id: OWN_PROFILE, name: 'Own profile' }] },
    ]);
    return { scheme: OWN_SCHEME, profile: OWN_PROFILE };
  },
  routes: (f) => [
    ['GET', `${cvc}/schemes`],
    ['GET', `${cvc}/profiles?schemeId=${encodeURIComponent(f.scheme)}`],
    ['GET', `${cvc}/criteria?profileId=${encodeURIComponent(f.profile)}`],
  ],
  // The catalogue answers an unknown URI with an empty list: another tenant's URI must look the same.
  foreign: (f) => [
    { method: 'GET', path: (id) => `${cvc}/profiles?schemeId=${encodeURIComponent(id)}`, id: f.scheme, status: 200 },
    { method: 'GET', path: (id) => `${cvc}/criteria?profileId=${encodeURIComponent(id)}`, id: f.profile, status: 200 },
  ],
  lists: (f) => [{ path: `${cvc}/schemes?limit=100`, hidden: [f.scheme] }],
  snapshot: async (app, f, a) => (await app.call('GET', `${cvc}/profiles?schemeId=${encodeURIComponent(f.scheme)}`, { token: a })).body,
});
beforeAll(() => ({ t, tokenA, tokenB } = context()));

describe("another tenant's catalogue", () => {
  it('is invisible: its profiles read as an empty list (while its owner sees them)', async () => {
    const own = await t.call('GET', `${cvc}/profiles?schemeId=${encodeURIComponent(OWN_SCHEME)}`, { token: tokenA });
    expect(own.body.data.map((p: { id: string }) => p.id)).toEqual([OWN_PROFILE]);
    const res = await t.call('GET', `${cvc}/profiles?schemeId=${encodeURIComponent(OWN_SCHEME)}`, { token: tokenB });
    expect(res.body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } });
  });
});
