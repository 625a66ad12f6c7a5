import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dids } from '../../db/schema/index.ts';
import { insertVcInstance, unreachableVc } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { apiAs, signInToConsole, type ConsoleUser } from '../../test/rig/console-user.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

/** Issue 32 item 3: importing a DID the tenant's VC service already holds. */
describe('console: import a DID', () => {
  let t: TestApp;
  let alice: ConsoleUser;
  let bob: ConsoleUser;
  const form = (overrides: Record<string, string> = {}) => ({ did: 'did:web:imported.example.com', keyId: 'key-1', serviceInstanceId: SYSTEM_SERVICE_IDS.VC, importedName: 'Our <b>site</b>', ...overrides });

  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob] = await Promise.all([signInToConsole(t.url, 'alice'), signInToConsole(t.url, 'bob')]);
  });
  afterAll(() => t.close());

  it('offers the VC services and records the DID, unverified, then shows it', async () => {
    const list = await alice.get('/console/dids');
    expect(list.html).toContain('action="/console/dids/import"');
    expect(list.html).toContain(`value="${SYSTEM_SERVICE_IDS.VC}"`);
    const res = await alice.post('/console/dids/import', form());
    expect(res.status, res.html).toBe(303);
    const page = await alice.get(res.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain('did:web:imported.example.com');
    expect(page.html).toContain('Our &lt;b&gt;site&lt;/b&gt;');
    expect(page.html).toMatch(/id="did-status">UNVERIFIED</);
    const listed = (await apiAs(alice, t.url, 'GET', '/dids', undefined, 200)).data.find((d: { did: string }) => d.did === 'did:web:imported.example.com');
    expect(listed).toMatchObject({ type: 'SELF_MANAGED', keyId: 'key-1', name: 'Our <b>site</b>' });
  });

  it('shows the problems beside the fields, keeps what was typed, and records nothing', async () => {
    const blank = await alice.post('/console/dids/import', form({ did: '', keyId: '' }));
    expect(blank.status).toBe(400);
    expect(blank.html).toMatch(/id="did-error">[^<]+</);
    expect(blank.html).toMatch(/id="keyId-error">[^<]+</);
    const notWeb = await alice.post('/console/dids/import', form({ did: 'did:key:z6Mk' }));
    expect(notWeb.status).toBe(400);
    expect(notWeb.html).toMatch(/id="did-error">did:key is not supported/);
    expect(notWeb.html).toContain('value="did:key:z6Mk"');
    const taken = await alice.post('/console/dids/import', form());
    expect(taken.status).toBe(409);
    const count = (await apiAs(alice, t.url, 'GET', '/dids', undefined, 200)).data.filter((d: { did: string }) => d.did.startsWith('did:web:imported')).length;
    expect(count).toBe(1);
  });

  it("another tenant's VC service is the 404 of a missing one, beside the field, and their DID is not shown", async () => {
    const [imported] = await t.db.select().from(dids).where(eq(dids.did, 'did:web:imported.example.com'));
    const aliceVc = await insertVcInstance(t.db, t.services.secretBox, imported!.tenantId, await unreachableVc());
    expect((await alice.get('/console/dids')).html).toContain(`value="${aliceVc.id}"`);
    expect((await bob.get('/console/dids')).html).not.toContain(aliceVc.id);
    const foreignId = aliceVc.id;
    const foreign = await bob.post('/console/dids/import', form({ did: 'did:web:bob.example.com', serviceInstanceId: foreignId }));
    const missing = await bob.post('/console/dids/import', form({ did: 'did:web:bob.example.com', serviceInstanceId: 'zzzzzzzzzzzzzzzzzzzzzzzzz' }));
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.html).toMatch(/id="serviceInstanceId-error">[^<]+</);
    expect((await bob.get('/console/dids')).html).not.toContain('did:web:imported.example.com');
  });

  it('refuses the import without the CSRF token', async () => {
    expect((await alice.post('/console/dids/import', form({ did: 'did:web:csrf.example.com' }), { csrf: false })).status).toBe(403);
  });
});
