import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySchemeDocuments, parseSchemeDocument } from '../../core/conformity/scheme-document.ts';
import { readSystemServices } from '../../core/settings/system-services.ts';
import { prepareDatabase } from '../../core/start-up/prepare-database.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { createEmptyDatabase } from '../../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../../test/rig/test-settings.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

const EXAMPLE = join('core', 'start-up', 'seed', 'conformity-scheme.example.json');
const SCHEME = 'https://schemes.example.org/responsible-batteries';
const CATHODE = 'https://schemes.example.org/responsible-batteries/cathode/2.0.0';
let t: TestApp;
let token: string;
let tokenB: string;

beforeAll(async () => {
  t = await startTestApp();
  [token, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
  await t.call('GET', '/api/v1/cvc/schemes', { token });
  const doc = parseSchemeDocument(EXAMPLE, await readFile(EXAMPLE, 'utf8'));
  await applySchemeDocuments(t.db, SYSTEM_TENANT_ID, [doc]);
  // Tenant A's own catalogue: one scheme with the system's URI (the system wins) and one of its own.
  const tenantA = await t.tenantOf('tenantA');
  await applySchemeDocuments(t.db, tenantA, [
    { ...doc, name: 'Tenant copy that must lose', includedProfile: [] },
    { id: 'https://tenant.example.com/aaa-scheme', name: 'AAA Tenant Scheme', includedProfile: [{ id: 'https://tenant.example.com/aaa/1', name: 'Own profile' }] },
  ]);
});
afterAll(() => t.close());

describe('conformity catalogue', () => {
  it('lists schemes sorted by name; the system entry wins for a shared URI; a tenant sees only its own extras', async () => {
    const a = await t.call('GET', '/api/v1/cvc/schemes', { token });
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual([
      { id: 'https://tenant.example.com/aaa-scheme', name: 'AAA Tenant Scheme', specVersion: null },
      { id: SCHEME, name: 'Responsible Battery Materials Scheme', specVersion: '0.7.0', owner: { canonicalId: 'https://schemes.example.org', name: 'Example Battery Alliance' } },
    ]);
    expect(a.body.pagination).toEqual({ total: 2, limit: 20, offset: 0, hasMore: false });
    const b = await t.call('GET', '/api/v1/cvc/schemes', { token: tokenB });
    expect(b.body.data.map((s: { id: string }) => s.id)).toEqual([SCHEME]);
  });

  it('profiles of a scheme and criteria of a profile, with topics, by name', async () => {
    const profiles = await t.call('GET', `/api/v1/cvc/profiles?schemeId=${encodeURIComponent(SCHEME)}`, { token });
    expect(profiles.body.data).toEqual([
      { id: 'https://schemes.example.org/responsible-batteries/anode/1.0.0', name: 'Anode Material Processor Profile', version: '1.0.0', status: 'active' },
      { id: CATHODE, name: 'Cathode Material Processor Profile', version: '2.0.0', status: 'active', validFrom: '2026-01-01' },
    ]);
    const criteria = await t.call('GET', `/api/v1/cvc/criteria?profileId=${encodeURIComponent(CATHODE)}&limit=1`, { token });
    expect(criteria.body.data).toEqual([
      {
        id: 'https://schemes.example.org/criterion/recycled-content/2.0.0',
        name: 'Recycled Content Declaration',
        version: '2.0.0',
        status: 'active',
        tags: ['circularity', 'disclosure'],
        topics: [{ canonicalId: 'https://vocabulary.uncefact.org/untp/conformity-topic/circularity', name: 'Circularity', definition: 'Keeping materials in use through reuse and recycling.' }],
      },
    ]);
    expect(criteria.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
    expect((await t.call('GET', '/api/v1/cvc/profiles?schemeId=https%3A%2F%2Funknown.example%2Fx', { token })).body.data).toEqual([]);
    expect((await t.call('GET', '/api/v1/cvc/criteria?profileId=https%3A%2F%2Funknown.example%2Fx', { token })).body.data).toEqual([]);
  });

});

describe('catalogue loading at start-up from the seed file (file and URL)', () => {
  it('loads listed documents, refreshes on the next start, and fails boot with a one-line reason', async () => {
    const text = await readFile(EXAMPLE, 'utf8');
    const served = JSON.parse(text);
    served.id = 'https://schemes.example.org/served';
    served.name = 'Served Scheme';
    served.includedProfile = served.includedProfile.map((p: { id: string }) => ({ ...p, id: `${p.id}/served` }));
    const server = createServer((_req, res) => res.end(JSON.stringify(served)));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scheme.json`;
    const { mkdtemp, writeFile, copyFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'css-cvc-'));
    await copyFile(EXAMPLE, join(dir, 'scheme.json'));
    const seedFile = join(dir, 'seed.json');
    await writeFile(seedFile, JSON.stringify({ registrars: [], conformitySchemes: [{ file: 'scheme.json' }, { url }] }));
    const database = await createEmptyDatabase();
    const base = { databaseUrl: database.url, dataEncryptionKey: TEST_ENCRYPTION_KEY, systemServices: readSystemServices({}), seedFile };
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await expect(prepareDatabase(base)).rejects.toThrow(/conformitySchemes: .*private or reserved/);
      await prepareDatabase({ ...base, allowPrivateUrls: true });
      expect((await sql`select name from cvc_schemes order by name`).map((r) => r.name)).toEqual(['Responsible Battery Materials Scheme', 'Served Scheme']);
      served.name = 'Served Scheme (renamed)';
      served.includedProfile = served.includedProfile.slice(0, 1);
      await prepareDatabase({ ...base, allowPrivateUrls: true });
      expect((await sql`select name from cvc_schemes where id = ${served.id}`)[0]!.name).toBe('Served Scheme (renamed)');
      expect((await sql`select count(*)::int as n from cvc_profiles where scheme_id = ${served.id}`)[0]!.n).toBe(1);
      await writeFile(join(dir, 'scheme.json'), '{"name":"broken"}');
      await expect(prepareDatabase({ ...base, allowPrivateUrls: true })).rejects.toThrow(/SYSTEM_SEED_FILE .*scheme\.json: not a conformity scheme document/);
    } finally {
      await sql.end();
      await database.drop();
      server.close();
    }
  });
});
