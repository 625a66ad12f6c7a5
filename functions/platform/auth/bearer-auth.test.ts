import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, users } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/rig/test-app.ts';

const LIST = '/api/v1/registrars';

describe('service-account bearer tokens (open mode)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('provisions a tenant for a principal seen for the first time, and keeps it', async () => {
    const before = (await t.db.select().from(tenants)).length;
    const token = await t.token('tenantA');
    expect((await t.call('GET', LIST, { token })).status).toBe(200);
    const tenantId = await t.tenantOf('tenantA');
    expect((await t.db.select().from(tenants)).length).toBe(before + 1);
    expect((await t.call('GET', LIST, { token: await t.token('tenantA') })).status).toBe(200);
    expect(await t.tenantOf('tenantA')).toBe(tenantId);
    expect((await t.db.select().from(tenants)).length).toBe(before + 1);
  });

  it('gives two principals two tenants', async () => {
    await t.call('GET', LIST, { token: await t.token('tenantA') });
    await t.call('GET', LIST, { token: await t.token('tenantB') });
    expect(await t.tenantOf('tenantA')).not.toBe(await t.tenantOf('tenantB'));
  });

  it('provisions exactly one tenant when a new principal sends concurrent first requests', async () => {
    const token = await t.token('globex');
    const results = await Promise.all(Array.from({ length: 6 }, () => t.call('GET', LIST, { token })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rows = (await t.db.select().from(users)).filter((u) => u.subject === 'globex-service');
    expect(rows).toHaveLength(1);
  });

  it('verifies tokens without a network call per request (discovery and JWKS fetched once)', async () => {
    const token = await t.token('tenantB');
    await t.call('GET', LIST, { token });
    const before = { jwks: t.idp.requestCount('/jwks'), discovery: t.idp.requestCount('/.well-known/openid-configuration') };
    const results = await Promise.all(Array.from({ length: 20 }, () => t.call('GET', LIST, { token })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(before.jwks).toBe(1);
    expect(before.discovery).toBe(1);
    expect(t.idp.requestCount('/jwks')).toBe(1);
    expect(t.idp.requestCount('/.well-known/openid-configuration')).toBe(1);
  });

  it('checks a fresh token per request against the key at hand: the same tenant, no key fetched, a forged or tampered token refused', async () => {
    expect((await t.call('GET', LIST, { token: await t.token('tenantA') })).status).toBe(200);
    const jwksFetches = t.idp.requestCount('/jwks');
    const tenantId = await t.tenantOf('tenantA');
    for (let i = 0; i < 3; i += 1) expect((await t.call('GET', LIST, { token: await t.token('tenantA') })).status).toBe(200);
    expect(t.idp.requestCount('/jwks')).toBe(jwksFetches);
    expect(await t.tenantOf('tenantA')).toBe(tenantId);
    const [header, payload, signature] = (await t.token('tenantA')).split('.');
    const [, otherPayload, otherSignature] = (await t.token('tenantB')).split('.');
    for (const token of [`${header}.${payload}.${otherSignature}`, `${header}.${otherPayload}.${signature}`]) {
      const res = await t.call('GET', LIST, { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid or expired access token', code: 'UNAUTHENTICATED' });
    }
  });

  it('401 { error, message } for a token without a sub claim', async () => {
    const res = await t.call('GET', LIST, { token: await t.token('noSub') });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorised', message: 'Access token has no sub claim' });
  });

  it('401 for a token issued for another audience', async () => {
    const token = await t.idp.clientCredentialsToken('tenant-a', 'tenant-a-secret', 'urn:another-api');
    const res = await t.call('GET', LIST, { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid or expired access token', code: 'UNAUTHENTICATED' });
  });

  it('401 for an expired token', async () => {
    const token = await t.token('shortLived');
    expect((await t.call('GET', LIST, { token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    const res = await t.call('GET', LIST, { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('401 for a token signed by another issuer', async () => {
    const other = await startTestApp();
    try {
      const foreign = await other.token('tenantA');
      const res = await t.call('GET', LIST, { token: foreign });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    } finally {
      await other.close();
    }
  });
});

describe('closed tenant mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TENANT_MODE: 'closed' } });
  });
  afterAll(() => t.close());

  it('maps the group claim to one tenant shared by all its principals', async () => {
    const acme = await t.token('acme');
    const created = await t.call('POST', LIST, {
      token: acme,
      body: { name: 'Acme registrar', namespace: 'acme', url: 'https://acme.example.com' },
    });
    expect(created.status).toBe(201);
    const colleague = await t.call('GET', `${LIST}/${created.body.id}`, { token: await t.token('acmeToo') });
    expect(colleague.status).toBe(200);
    expect(await t.tenantOf('acme')).toBe(await t.tenantOf('acmeToo'));
    const outsider = await t.call('GET', `${LIST}/${created.body.id}`, { token: await t.token('globex') });
    expect(outsider.status).toBe(404);
  });

  it('403 for a token without the group claim', async () => {
    const res = await t.call('GET', LIST, { token: await t.token('noGroup') });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Access requires the "groups" group claim', code: 'TENANT_CLAIM_MISSING' });
  });
});

describe('tenant claim settings', () => {
  it('TENANT_CLAIM_NAME selects another claim; a token without it is refused', async () => {
    const t = await startTestApp({ env: { TENANT_MODE: 'closed', TENANT_CLAIM_NAME: 'organisation' } });
    try {
      const res = await t.call('GET', LIST, { token: await t.token('acme') });
      expect(res.status).toBe(403);
      expect(res.body.error).toContain('"organisation"');
    } finally {
      await t.close();
    }
  });

  it('TENANT_CLAIM_FORMAT=string refuses an array-valued claim', async () => {
    const t = await startTestApp({ env: { TENANT_MODE: 'closed', TENANT_CLAIM_FORMAT: 'string' } });
    try {
      expect((await t.call('GET', LIST, { token: await t.token('acme') })).status).toBe(403);
    } finally {
      await t.close();
    }
  });
});
