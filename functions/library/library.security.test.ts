import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryRecords, serviceInstances, verificationRuns } from '../../db/schema/index.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { pointStorageInstance } from '../../test/rig/credential-fixtures.ts';
import { annotations, insertLibraryRecord, LIBRARY, startLibraryRig, type LibraryRig } from '../../test/rig/library-fixtures.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenB: string;
const register = { sourceUrl: 'https://supplier.example.com/c.json', annotations: annotations() };

const context = securitySuite({
  name: '/library',
  setup: async (app) => {
    await app.call('GET', LIBRARY, { token: await app.token('tenantA') });
    const tenantA = await app.tenantOf('tenantA');
    return {
      external: await insertLibraryRecord(app.db, tenantA, { tags: ['secret-project'], summary: 'verified' }),
      native: await insertLibraryRecord(app.db, tenantA, { origin: 'NATIVE', tags: ['secret-project'] }),
    };
  },
  routes: (f) => [
    ['GET', LIBRARY],
    ['POST', LIBRARY, register],
    ['POST', `${LIBRARY}/batch-get`, { ids: [f.external] }],
    ['GET', `${LIBRARY}/${f.external}`],
    ['PATCH', `${LIBRARY}/${f.external}`, { displayName: 'Hijacked' }],
    ['PUT', `${LIBRARY}/${f.external}/tags`, { tags: [] }],
    ['POST', `${LIBRARY}/${f.external}/verify`],
    ['DELETE', `${LIBRARY}/${f.external}`],
  ],
  foreign: (f) =>
    [f.external, f.native].flatMap((id) => [
      { method: 'GET', path: (x: string) => `${LIBRARY}/${x}`, id },
      { method: 'PATCH', path: (x: string) => `${LIBRARY}/${x}`, body: () => ({ displayName: 'Hijacked' }), id },
      { method: 'PUT', path: (x: string) => `${LIBRARY}/${x}/tags`, body: () => ({ tags: [] }), id },
      { method: 'POST', path: (x: string) => `${LIBRARY}/${x}/verify`, id },
      { method: 'DELETE', path: (x: string) => `${LIBRARY}/${x}`, id, status: 204 },
    ]),
  lists: (f) => [
    { path: `${LIBRARY}?limit=100`, hidden: [f.external, f.native] },
    { path: `${LIBRARY}?tag=secret-project`, hidden: [f.external, f.native] },
  ],
  snapshot: async (app, f, a) => [
    (await app.call('GET', `${LIBRARY}/${f.external}`, { token: a })).body,
    (await app.call('GET', `${LIBRARY}/${f.native}`, { token: a })).body,
  ],
  count: async (db) => [
    (await db.select({ n: sql<number>`count(*)::int` }).from(libraryRecords))[0]!.n,
    (await db.select({ n: sql<number>`count(*)::int` }).from(verificationRuns))[0]!.n,
  ],
});

describe('batch-get across tenants', () => {
  it("another tenant's ids are NOT_FOUND failures, exactly like missing ones", async () => {
    ({ t, tokenB } = context());
    const { external, native } = context().fixture;
    const res = await t.call('POST', `${LIBRARY}/batch-get`, { token: tokenB, body: { ids: [external, 'no-such-record', native] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const message = { code: 'NOT_FOUND', message: 'No such credential record.' };
    expect(res.body.failures).toEqual([{ id: external, ...message }, { id: 'no-such-record', ...message }, { id: native, ...message }]);
  });
});

describe('supplier keys', () => {
  let rig: LibraryRig;
  const lines: string[] = [];
  beforeAll(async () => {
    rig = await startLibraryRig();
    const logger = rig.t.services.logger;
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      const original = logger[level].bind(logger);
      logger[level] = (message: string, fields?: Record<string, unknown>) => {
        lines.push(JSON.stringify({ message, ...fields }));
        original(message, fields);
      };
    }
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('never appear in a response, a stored row or a log line, on success or on failure', async () => {
    const issued = await rig.issue();
    const key = issued.decryptionKey!;
    const wrongKey = 'cd'.repeat(32);
    const responses: string[] = [];
    responses.push((await rig.register({ sourceUrl: issued.storageUri, sourceEncryption: { decryptionKey: wrongKey }, annotations: annotations() })).text);
    const [system] = await rig.t.db.select().from(serviceInstances).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.STORAGE));
    await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, 'http://127.0.0.1:9');
    const down = await rig.register({ sourceUrl: issued.storageUri, sourceEncryption: { decryptionKey: key }, annotations: annotations() });
    expect(down.status).toBe(502);
    responses.push(down.text);
    await rig.t.db.update(serviceInstances).set({ configEncrypted: system!.configEncrypted }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.STORAGE));
    const ok = await rig.register({ sourceUrl: issued.storageUri, sourceEncryption: { decryptionKey: key }, annotations: annotations() });
    expect(ok.status).toBe(201);
    responses.push(ok.text, (await rig.get(ok.body.id)).text, (await rig.t.call('GET', `${LIBRARY}?limit=100`, { token: rig.token })).text);
    await rig.verifyPending(ok.body.id);
    responses.push((await rig.get(ok.body.id)).text);
    // The other way a key arrives: opening a copy registered without it.
    await rig.t.call('DELETE', `${LIBRARY}/${ok.body.id}`, { token: rig.token });
    const unopened = await rig.register({ sourceUrl: issued.storageUri, annotations: annotations() });
    const path = `${LIBRARY}/${unopened.body.id}/verify`;
    responses.push((await rig.t.call('POST', path, { token: rig.token, body: { sourceEncryption: { decryptionKey: wrongKey } } })).text);
    const recovered = await rig.t.call('POST', path, { token: rig.token, body: { sourceEncryption: { decryptionKey: key } } });
    expect(recovered.status).toBe(202);
    responses.push(recovered.text, (await rig.get(unopened.body.id)).text);
    expect(lines.some((line) => line.includes('storage'))).toBe(true);
    for (const text of [...responses, ...lines]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(wrongKey);
    }
    const everything = await rig.t.db.execute(sql`select row_to_json(e)::text as row from external_credentials e union all select row_to_json(k)::text from idempotency_keys k`);
    for (const row of everything as unknown as { row: string }[]) expect(row.row).not.toContain(key);
  });
});
