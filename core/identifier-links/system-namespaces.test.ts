import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierSchemes, serviceInstances } from '../../db/schema/index.ts';
import { readSystemSeedFile } from '../start-up/seed/system-seed-file.ts';
import { applySystemSeed } from '../start-up/seed/apply-system-seed.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import { createEmptyDatabase } from '../../test/rig/databases.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { runProgram } from '../../test/rig/program.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { TEST_ENCRYPTION_KEY } from '../../test/rig/test-settings.ts';
import { ConfigError } from '../errors.ts';
import { createLogger } from '../logging/logger.ts';
import { SYSTEM_SERVICE_IDS } from '../settings/system-services.ts';
import { namespaceRegistration, registerSystemNamespaces } from './system-namespaces.ts';

/** The example seed's registrars (GS1 with GTIN and GLN, ABR, ASIC) and their resolvers. */
const SEED = new URL('../start-up/seed/system-seed.example.json', import.meta.url).pathname;
const GLN_SCHEME = 'zi1m7emkw9pzcblxljxpypo1';
const GS1_REGISTRAR = 'ynsca07b9z9c7gyn121lh2rc';

let t: TestApp;
let system: IdrDouble;
let own: IdrDouble;
const warnings: string[] = [];
const deps = () => ({
  db: t.db,
  box: t.services.secretBox,
  fetcher: t.services.fetcher,
  logger: createLogger('warn', (line) => warnings.push(line)),
});
const idrConfig = (idr: IdrDouble) => ({ baseUrl: idr.url, apiKey: idr.apiKey, apiVersion: '4.0', defaultLinkType: 'untp:dpp', defaultMimeType: 'text/html', defaultLanguage: 'en', defaultContext: 'au', defaultFwqs: false });

beforeAll(async () => {
  system = await startIdrDouble();
  own = await startIdrDouble();
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  await applySystemSeed(t.db, await readSystemSeedFile(SEED), (problem) => new ConfigError(problem));
  await t.db.update(serviceInstances).set({ configEncrypted: await t.services.secretBox.encryptJson(idrConfig(system)) }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.IDR));
});
afterAll(async () => {
  await t.close();
  await system.close();
  await own.close();
});

describe('namespaceRegistration', () => {
  it('schemes become primary identifiers listing their qualifier keys; qualifiers are registered once', () => {
    const qualifier = { key: '10', description: 'Batch', validationPattern: '^[A-Z]+$' };
    const registration = namespaceRegistration('gs1', [
      { name: 'GTIN', primaryKey: '01', validationPattern: '^\\d{14}$', qualifiers: [qualifier, { key: '21', description: 'Serial', validationPattern: '^\\d+$' }] },
      { name: 'SSCC', primaryKey: '00', validationPattern: '^\\d{18}$', qualifiers: [{ ...qualifier, validationPattern: '^x$' }] },
    ]);
    expect(registration).toEqual({
      namespace: 'gs1',
      applicationIdentifiers: [
        { title: 'GTIN', label: 'GTIN', shortcode: '01', ai: '01', type: 'I', regex: '^\\d{14}$', qualifiers: ['10', '21'] },
        { title: 'SSCC', label: 'SSCC', shortcode: '00', ai: '00', type: 'I', regex: '^\\d{18}$', qualifiers: ['10'] },
        { title: 'Batch', label: 'Batch', shortcode: '10', ai: '10', type: 'Q', regex: '^[A-Z]+$' },
        { title: 'Serial', label: 'Serial', shortcode: '21', ai: '21', type: 'Q', regex: '^\\d+$' },
      ],
    });
  });
});

describe('system namespaces at start-up', () => {
  it('a tenant cannot publish under a system scheme while its namespace is not registered upstream', async () => {
    const token = await t.token('tenantA');
    const identifier = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: 'npmh5jw6sjiiz03ctdzr4vu9', value: '09520123456788' } });
    expect(identifier.status).toBe(201);
    const refused = await t.call('POST', `/api/v1/identifiers/${identifier.body.id}/links`, {
      token,
      body: { links: [{ href: 'https://example.com/dpp/early', rel: 'untp:dpp', type: 'text/html' }] },
    });
    expect(refused).toMatchObject({ status: 422, body: { code: 'IDR_NAMESPACE_UNKNOWN', error: expect.stringMatching(/namespace 'gs1'/) } });
  });

  it('each system namespace goes to the resolver its schemes publish to; tenants then publish with qualifiers', async () => {
    // A tenant's own scheme under the system GS1 registrar stays out of the system's registration.
    const tenantScheme = await t.call('POST', '/api/v1/schemes', {
      token: await t.token('tenantB'),
      body: { registrarId: GS1_REGISTRAR, name: 'GIAI', primaryKey: '8004', validationPattern: '^.{1,30}$', linkTemplate: '/{primaryKey}/{value}' },
    });
    expect(tenantScheme.status).toBe(201);
    // The GLN scheme has a resolver of its own (a system instance): gs1 is registered on both, each with its schemes.
    const [instance] = await t.db
      .insert(serviceInstances)
      .values({ tenantId: SYSTEM_TENANT_ID, serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'GLN resolver', configEncrypted: await t.services.secretBox.encryptJson(idrConfig(own)), isPrimary: false })
      .returning();
    await t.db.update(identifierSchemes).set({ idrServiceInstanceId: instance!.id }).where(eq(identifierSchemes.id, GLN_SCHEME));

    const result = await registerSystemNamespaces(deps());
    expect(result.failed).toEqual([]);
    expect(result.registered.sort()).toEqual(['abr', 'asic', 'gs1', 'gs1']);
    expect(system.schemes.get('gs1')!.applicationIdentifiers.map((a) => [a.ai, a.type, a.qualifiers])).toEqual([
      ['01', 'I', ['10', '21']],
      ['10', 'Q', undefined],
      ['21', 'Q', undefined],
    ]);
    expect(own.schemes.get('gs1')!.applicationIdentifiers.map((a) => [a.ai, a.regex])).toEqual([['414', '^\\d{13}$']]);
    expect([...system.schemes.keys()].sort()).toEqual(['abr', 'asic', 'gs1']);

    const token = await t.token('tenantA');
    const [identifier] = (await t.call('GET', '/api/v1/identifiers?schemeId=npmh5jw6sjiiz03ctdzr4vu9', { token })).body.data;
    const published = await t.call('POST', `/api/v1/identifiers/${identifier.id}/links`, {
      token,
      body: { qualifierPath: '/10/LOT1/21/SER9', links: [{ href: 'https://example.com/dpp/lot1', rel: 'untp:dpp', type: 'text/html' }] },
    });
    expect(published.status).toBe(201);
    expect(system.links.get(published.body[0].idrLinkId)).toMatchObject({ documentKey: 'gs1/01/09520123456788/10/LOT1/21/SER9' });
    // A qualifier the scheme does not have is refused before anything is sent (issue 12 item 2).
    const unknownQualifier = await t.call('POST', `/api/v1/identifiers/${identifier.id}/links`, {
      token,
      body: { qualifierPath: '/17/261231', links: [{ href: 'https://example.com/dpp/expiry', rel: 'untp:dpp', type: 'text/html' }] },
    });
    expect(unknownQualifier).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^qualifierPath: '17' is not a qualifier key of the scheme/) } });
  });

  it('registering again is harmless; a resolver that fails is logged and reported, not thrown', async () => {
    expect((await registerSystemNamespaces(deps())).failed).toEqual([]);
    expect(system.schemes.get('gs1')!.applicationIdentifiers).toHaveLength(3);
    system.failNext('error', 3);
    const result = await registerSystemNamespaces(deps());
    expect(result.failed.sort()).toEqual(['abr', 'asic', 'gs1']);
    expect(result.registered).toEqual(['gs1']);
    const logged = warnings.map((line) => JSON.parse(line)).filter((line) => line.message === 'System namespace not registered with its identity resolver');
    expect(logged).toHaveLength(3);
    expect(JSON.stringify(logged)).not.toContain(system.apiKey);
  });
});

describe('a shared resolver that already holds a namespace', () => {
  it('is never overwritten: a differing registration is kept and logged with its differences; an identical one is left alone', async () => {
    const shared = await startIdrDouble();
    try {
      const operators = {
        namespace: 'gs1',
        applicationIdentifiers: [
          { title: 'Global Trade Item Number (GTIN)', label: 'GTIN', shortcode: 'gtin', ai: '01', type: 'I', regex: '(\\d{12,14}|\\d{8})', qualifiers: ['10', '21'] },
          { title: 'Batch or lot number', label: 'BATCH/LOT', shortcode: 'lot', ai: '10', type: 'Q', regex: '([\\x21-\\x7A]{0,20})' },
        ],
      };
      const res = await fetch(`${shared.url}/api/v4/identifiers`, { method: 'POST', headers: { authorization: `Bearer ${shared.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(operators) });
      expect(res.status).toBe(200);
      const before = structuredClone(shared.schemes.get('gs1'));
      shared.calls.length = 0;
      await t.db.update(serviceInstances).set({ configEncrypted: await t.services.secretBox.encryptJson(idrConfig(shared)) }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.IDR));
      warnings.length = 0;

      const first = await registerSystemNamespaces(deps());
      expect(first.kept).toEqual(['gs1']);
      expect(first.failed).toEqual([]);
      expect(shared.schemes.get('gs1')).toEqual(before);
      expect(shared.calls.filter((c) => c.method === 'POST' && c.path === '/api/v4/identifiers').map((c) => (c.body as { namespace: string }).namespace).sort()).toEqual(['abr', 'asic']);
      const [logged] = warnings.map((line) => JSON.parse(line)).filter((line) => line.namespace === 'gs1');
      expect(logged).toMatchObject({ level: 'warn', idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR });
      expect(logged.differences).toEqual(expect.arrayContaining([expect.stringMatching(/^ai 01: shortcode is "gtin" upstream, "01" here$/), expect.stringMatching(/^ai 01: regex /), 'ai 21: not registered upstream']));

      // Ours, registered by us before: identical, so nothing is sent again.
      const posts = shared.calls.filter((c) => c.method === 'POST').length;
      const again = await registerSystemNamespaces(deps());
      // The GLN scheme's own resolver holds our gs1 registration: it counts as registered.
      expect({ ...again, registered: again.registered.sort() }).toEqual({ registered: ['abr', 'asic', 'gs1'], failed: [], kept: ['gs1'] });
      expect(shared.calls.filter((c) => c.method === 'POST').length).toBe(posts);
    } finally {
      await shared.close();
    }
  });
});

describe('the web process', () => {
  it('registers the system namespaces after start-up', async () => {
    const idr = await startIdrDouble();
    const database = await createEmptyDatabase();
    const web = runProgram('functions/server.ts', {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      RI_APP_URL: 'http://127.0.0.1:3003',
      AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
      RI_DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SYSTEM_SEED_FILE: SEED,
      SYSTEM_IDR_BASE_URL: idr.url,
      SYSTEM_IDR_API_KEY: idr.apiKey,
      FETCH_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'error',
    });
    try {
      for (let i = 0; idr.schemes.size < 3; i++) {
        if (i > 600 || web.child.exitCode !== null) throw new Error(`the web process registered no namespaces: ${web.output().stderr}`);
        await new Promise((done) => setTimeout(done, 50));
      }
      expect([...idr.schemes.keys()].sort()).toEqual(['abr', 'asic', 'gs1']);
    } finally {
      web.child.kill('SIGTERM');
      await web.exited;
      await idr.close();
      await database.drop();
    }
  }, 60_000);
});
