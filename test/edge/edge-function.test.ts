import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { startLocalIdp, type LocalIdp } from '../../scripts/local-idp.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/**
 * The registrars group bundled as an edge function and run in workerd (miniflare): the same
 * platform conventions, a real token from a real IDP, and a real database reached through
 * postgres.js over `cloudflare:sockets` with one client per request. The schemes and identifiers
 * groups run beside it: tenant patterns evaluate on RE2 (re2js) there too. Organisations reads its
 * identifiers through the relational API with the master-data graph its client gets (db/relational-graphs.ts).
 */
describe('resource groups as edge functions in workerd (registrars, health, schemes, identifiers, organisations)', () => {
  let dir: string;
  let mf: Miniflare;
  let idp: LocalIdp;
  let database: TestDatabase;
  const account = { clientId: 'edge-service', clientSecret: 'edge-service-secret' };
  const base = 'http://edge.test';

  const call = async (method: string, path: string, init: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await mf.dispatchFetch(`${base}${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-'));
    const bundle = (group: string) => join(dir, `${group}.js`);
    for (const group of ['registrars', 'health', 'schemes', 'identifiers', 'organisations']) await bundleEdgeEntry(`functions/${group}/edge.ts`, bundle(group));
    database = await createTestDatabase();
    idp = await startLocalIdp({
      audience: TEST_AUDIENCE,
      appClient: { ...TEST_APP_CLIENT, redirectUris: [`${base}/auth/callback`] },
      serviceAccounts: [account],
    });
    const bindings = {
      RI_DATABASE_URL: database.url,
      RI_APP_URL: base,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      AUTH_OIDC_ISSUER: idp.issuer,
      AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
      AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
      AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
      LOG_LEVEL: 'error',
    };
    const common = { modules: true, modulesRoot: dir, compatibilityDate: '2026-07-01', compatibilityFlags: ['nodejs_compat'], bindings };
    mf = new Miniflare({
      workers: [
        { ...common, name: 'registrars', scriptPath: bundle('registrars'), routes: ['*/api/v1/registrars*'] },
        { ...common, name: 'health', scriptPath: bundle('health'), routes: ['*/api/health*'] },
        { ...common, name: 'schemes', scriptPath: bundle('schemes'), routes: ['*/api/v1/schemes*'] },
        { ...common, name: 'identifiers', scriptPath: bundle('identifiers'), routes: ['*/api/v1/identifiers*'] },
        { ...common, name: 'organisations', scriptPath: bundle('organisations'), routes: ['*/api/v1/organisations*'] },
      ],
    });
    await mf.ready;
  }, 120_000);

  afterAll(async () => {
    await mf?.dispose();
    await idp?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('health answers 200 with the database up', async () => {
    const res = await call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
  });

  it('creates, reads, lists, patches and deletes a registrar with a bearer token', async () => {
    const token = await idp.clientCredentialsToken(account.clientId, account.clientSecret);
    const created = await call('POST', '/api/v1/registrars', {
      token,
      body: { name: 'Edge Registrar', namespace: 'edge', url: 'https://edge.example.com' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-correlation-id')).toBeTruthy();
    const id = created.body.id as string;

    const read = await call('GET', `/api/v1/registrars/${id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, name: 'Edge Registrar', schemes: [], isSystemDefault: false });

    const list = await call('GET', '/api/v1/registrars?limit=5', { token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);

    const patched = await call('PATCH', `/api/v1/registrars/${id}`, { token, body: { name: 'Renamed' } });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Renamed');

    expect((await call('DELETE', `/api/v1/registrars/${id}`, { token })).status).toBe(204);
    expect((await call('GET', `/api/v1/registrars/${id}`, { token })).status).toBe(404);
  });

  it('keeps the platform conventions: 401 without a token, 400 naming the field', async () => {
    const anonymous = await call('GET', '/api/v1/registrars');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('Unauthorised');

    const token = await idp.clientCredentialsToken(account.clientId, account.clientSecret);
    const bad = await call('POST', '/api/v1/registrars', { token, body: { name: ' ', namespace: 'x', url: 'https://x.example.com' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^name: /);
  });

  it('evaluates tenant patterns on RE2: a catastrophic pattern refuses a hostile value at once and accepts a match', { timeout: 10_000 }, async () => {
    const token = await idp.clientCredentialsToken(account.clientId, account.clientSecret);
    const registrar = await call('POST', '/api/v1/registrars', { token, body: { name: 'Patterns', namespace: 'patterns', url: 'https://patterns.example.com' } });
    const refused = await call('POST', '/api/v1/schemes', {
      token,
      body: { registrarId: registrar.body.id, name: 'Lookahead', primaryKey: 'la', validationPattern: '(?=a)b', linkTemplate: '/{primaryKey}/{value}' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^validationPattern: must be a valid regular expression in RE2 syntax/);
    const scheme = await call('POST', '/api/v1/schemes', {
      token,
      body: { registrarId: registrar.body.id, name: 'Catastrophic', primaryKey: 'ca', validationPattern: '^(a+)+$', linkTemplate: '/{primaryKey}/{value}' },
    });
    expect(scheme.status).toBe(201);

    const started = Date.now();
    const hostile = await call('POST', '/api/v1/identifiers', { token, body: { schemeId: scheme.body.id, value: `${'a'.repeat(40)}!` } });
    expect(hostile.status).toBe(400);
    expect(hostile.body.error).toContain("value: must match the scheme's validationPattern");
    expect(Date.now() - started).toBeLessThan(2_000);

    const created = await call('POST', '/api/v1/identifiers', { token, body: { schemeId: scheme.body.id, value: 'aaaa' } });
    expect(created.status).toBe(201);
    const read = await call('GET', `/api/v1/identifiers/${created.body.id}`, { token });
    expect(read.body).toMatchObject({ value: 'aaaa', scheme: { id: scheme.body.id, registrar: { id: registrar.body.id } } });
  });

  it('reads an organisation with its identifiers, their scheme and registrar, through its graph', async () => {
    const token = await idp.clientCredentialsToken(account.clientId, account.clientSecret);
    const registrar = await call('POST', '/api/v1/registrars', { token, body: { name: 'Graph', namespace: 'graph', url: 'https://graph.example.com' } });
    const scheme = await call('POST', '/api/v1/schemes', {
      token,
      body: { registrarId: registrar.body.id, name: 'Digits', primaryKey: 'dg', validationPattern: '^\\d+$', linkTemplate: '/{primaryKey}/{value}' },
    });
    const [primary, secondary] = await Promise.all(['1001', '1002'].map((value) => call('POST', '/api/v1/identifiers', { token, body: { schemeId: scheme.body.id, value } })));
    const created = await call('POST', '/api/v1/organisations', {
      token,
      body: [{ name: 'Edge Organisation', primaryIdentifierId: primary!.body.id, secondaryIdentifierIds: [secondary!.body.id] }],
    });
    expect(created.status).toBe(201);

    const read = await call('GET', `/api/v1/organisations/${created.body[0].id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      name: 'Edge Organisation',
      primaryIdentifier: { id: primary!.body.id, value: '1001', scheme: { id: scheme.body.id, registrar: { id: registrar.body.id } } },
      secondaryIdentifiers: [{ id: secondary!.body.id, value: '1002', scheme: { id: scheme.body.id } }],
    });
  });
});
