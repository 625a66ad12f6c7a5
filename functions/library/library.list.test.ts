import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { credentialStatusEntries, libraryRecords } from '../../db/schema/index.ts';
import { insertLibraryRecord, LIBRARY, type RecordFixture } from '../../test/rig/library-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let tenantId: string;
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const R: Record<string, string> = {};

/** A small library whose every record differs from the others in what the filters look at. */
const FIXTURES: Record<string, RecordFixture> = {
  dppNative: { origin: 'NATIVE', validFrom: day('2026-01-10'), issuerName: 'Acme Mining', issuerDid: 'did:web:acme.example', tags: ['steel', 'eu'], encrypted: true },
  dccExternal: { coreCredentialType: 'DigitalConformityCredential', validFrom: new Date('2026-02-01T23:59:59Z'), issuerDid: 'did:web:lab.example', tags: ['steel'], summary: 'verified' },
  dfrPending: { coreCredentialType: 'DigitalFacilityRecord', validFrom: day('2026-02-02'), tags: ['eu', 'audit'], summary: 'pending', encrypted: true },
  dteFailed: { coreCredentialType: 'DigitalTraceabilityEvent', validFrom: day('2026-03-05'), summary: 'failed' },
  diaNotConformant: { coreCredentialType: 'DigitalIdentityAnchor', validFrom: day('2026-03-06'), summary: 'not_conformant', tags: ['audit'] },
  undated: { coreCredentialType: null, validFrom: null, issuerName: 'acme mining' },
};

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  await t.call('GET', LIBRARY, { token });
  tenantId = await t.tenantOf('tenantA');
  for (const [name, fixture] of Object.entries(FIXTURES)) R[name] = await insertLibraryRecord(t.db, tenantId, fixture);
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.call('GET', `${LIBRARY}?limit=100&${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: { id: string }[]; failures: unknown[]; pagination: { total: number; hasMore: boolean } };
};
const names = async (query: string) => {
  const byId = Object.fromEntries(Object.entries(R).map(([name, id]) => [id, name]));
  return (await list(query)).data.map((r) => byId[r.id] ?? r.id);
};
const sorted = (values: string[]) => [...values].sort();

describe('GET /library filters', () => {
  it('type: one code, or several (any matches)', async () => {
    expect(await names('type=DPP')).toEqual(['dppNative']);
    expect(sorted(await names('type=DCC&type=DTE'))).toEqual(['dccExternal', 'dteFailed']);
  });

  it('organisationId, facilityId and productId: the records linked to that entity', async () => {
    const [organisation] = (await t.call('POST', '/api/v1/organisations', { token, body: [{ name: 'Acme' }] })).body;
    const [facility] = (await t.call('POST', '/api/v1/facilities', { token, body: [{ name: 'Mine' }] })).body;
    const [product] = (await t.call('POST', '/api/v1/products', { token, body: [{ name: 'Ore', level: 'MODEL' }] })).body;
    const other = await startTestApp();
    try {
      const otherToken = await other.token('tenantA');
      const [o] = (await other.call('POST', '/api/v1/organisations', { token: otherToken, body: [{ name: 'Acme' }] })).body;
      const [f] = (await other.call('POST', '/api/v1/facilities', { token: otherToken, body: [{ name: 'Mine' }] })).body;
      const [p] = (await other.call('POST', '/api/v1/products', { token: otherToken, body: [{ name: 'Ore', level: 'MODEL' }] })).body;
      const owner = await other.tenantOf('tenantA');
      const linked = {
        organisation: await insertLibraryRecord(other.db, owner, { organisationId: o.id }),
        facility: await insertLibraryRecord(other.db, owner, { facilityId: f.id }),
        product: await insertLibraryRecord(other.db, owner, { productId: p.id }),
      };
      await insertLibraryRecord(other.db, owner);
      const ids = async (query: string) => (await other.call('GET', `${LIBRARY}?${query}`, { token: otherToken })).body.data.map((r: { id: string }) => r.id);
      expect(await ids(`organisationId=${o.id}`)).toEqual([linked.organisation]);
      expect(await ids(`facilityId=${f.id}`)).toEqual([linked.facility]);
      expect(await ids(`productId=${p.id}`)).toEqual([linked.product]);
      expect((await other.call('GET', `${LIBRARY}/${linked.product}`, { token: otherToken })).body.productId).toBe(p.id);
    } finally {
      await other.close();
    }
    // An entity of this tenant with no records linked lists nothing.
    expect(await names(`organisationId=${organisation.id}&facilityId=${facility.id}&productId=${product.id}`)).toEqual([]);
  });

  it('origin', async () => {
    expect(await names('origin=native')).toEqual(['dppNative']);
    expect((await names('origin=external')).length).toBe(5);
  });

  it('issuer: the name in any case, or the DID exactly', async () => {
    expect(sorted(await names('issuer=ACME%20MINING'))).toEqual(['dppNative', 'undated']);
    expect(await names('issuer=did:web:lab.example')).toEqual(['dccExternal']);
    expect(await names('issuer=did:web:LAB.example')).toEqual([]);
  });

  it('encrypted', async () => {
    expect(sorted(await names('encrypted=true'))).toEqual(['dfrPending', 'dppNative']);
    expect(await names('encrypted=false')).not.toContain('dppNative');
  });

  it('status: the latest generation’s summary; a native record never re-verified stands verified', async () => {
    expect(sorted(await names('status=verified'))).toEqual(['dccExternal', 'dppNative']);
    expect(await names('status=pending')).toEqual(['dfrPending']);
    expect(await names('status=failed')).toEqual(['dteFailed']);
    expect(await names('status=not_conformant')).toEqual(['diaNotConformant']);
  });

  it('issuedFrom and issuedTo are whole UTC days, both inclusive', async () => {
    expect(sorted(await names('issuedFrom=2026-02-01&issuedTo=2026-02-02'))).toEqual(['dccExternal', 'dfrPending']);
    expect(await names('issuedTo=2026-01-10')).toEqual(['dppNative']);
    expect(sorted(await names('issuedFrom=2026-03-06'))).toEqual(['diaNotConformant']);
  });

  it('tag: any of them; excludeTag: none of them; exclusion wins; both together', async () => {
    expect(sorted(await names('tag=steel'))).toEqual(['dccExternal', 'dppNative']);
    expect(sorted(await names('tag=steel&tag=audit'))).toEqual(sorted(['dccExternal', 'diaNotConformant', 'dfrPending', 'dppNative']));
    expect(sorted(await names('excludeTag=eu'))).toEqual(sorted(['dccExternal', 'diaNotConformant', 'dteFailed', 'undated']));
    expect(await names('tag=eu&excludeTag=eu')).toEqual([]);
    expect(await names('tag=steel&excludeTag=eu')).toEqual(['dccExternal']);
    expect(sorted(await names('excludeTag=eu&excludeTag=audit&tag=steel'))).toEqual(['dccExternal']);
    // The total of a costly filter also holds on a page past the end.
    expect((await t.call('GET', `${LIBRARY}?tag=steel&limit=1`, { token })).body.pagination).toMatchObject({ total: 2, hasMore: true });
    expect(await list('tag=steel&offset=5')).toMatchObject({ data: [], pagination: { total: 2, hasMore: false } });
  });
});

describe('record fields', () => {
  it('currencyStatus from the validity window; lifecycle and statusManageable from a native record’s status entries', async () => {
    const day = 86_400_000;
    const expired = await insertLibraryRecord(t.db, tenantId, { validFrom: new Date(Date.now() - 10 * day), validUntil: new Date(Date.now() - day), tags: ['fields'] });
    const early = await insertLibraryRecord(t.db, tenantId, { validFrom: new Date(Date.now() + day), tags: ['fields'] });
    const revoked = await insertLibraryRecord(t.db, tenantId, { origin: 'NATIVE', tags: ['fields'] });
    const entry = { tenantId, type: 'BitstringStatusListEntry', statusListCredential: 'https://vc.example/status/1', statusListIndex: '7', statusListIssuer: 'did:web:vc.example', descriptor: {} };
    await t.db.insert(credentialStatusEntries).values([
      { ...entry, credentialId: revoked, statusPurpose: 'revocation', value: true },
      { ...entry, credentialId: revoked, statusPurpose: 'suspension', value: false },
    ]);
    const rows = Object.fromEntries((await list('tag=fields')).data.map((r) => [r.id, r as unknown as Record<string, any>]));
    expect(rows[expired]).toMatchObject({ currencyStatus: 'expired', lifecycle: null, status: null });
    expect(rows[early]).toMatchObject({ currencyStatus: 'not_yet_valid' });
    expect(rows[revoked]).toMatchObject({ currencyStatus: 'current', lifecycle: 'revoked', capabilities: { statusManageable: true } });
    expect(rows[revoked]!.status.entries.map((e: { statusPurpose: string; value: boolean }) => [e.statusPurpose, e.value])).toEqual([['revocation', true], ['suspension', false]]);
    expect((await list(`tag=fields`)).data).toHaveLength(3);
    expect(rows[R.undated!]).toBeUndefined();
    const undated = (await t.call('GET', `${LIBRARY}/${R.undated}`, { token })).body;
    expect(undated).toMatchObject({ currencyStatus: 'unknown', issuedAt: null });
    await t.db.delete(libraryRecords).where(inArray(libraryRecords.id, [expired, early, revoked]));
  });
});

describe('GET /library order and pages', () => {
  it('issue date newest first by default, undated last; ascending on request', async () => {
    expect(await names('')).toEqual(['diaNotConformant', 'dteFailed', 'dfrPending', 'dccExternal', 'dppNative', 'undated']);
    expect(await names('sort=issuedAt:asc')).toEqual(['dppNative', 'dccExternal', 'dfrPending', 'dteFailed', 'diaNotConformant', 'undated']);
  });

  it('createdAt either way, and ties broken by id ascending', async () => {
    const same = new Date('2026-05-05T00:00:00Z');
    const other = await startTestApp();
    try {
      const otherToken = await other.token('tenantA');
      await other.call('GET', LIBRARY, { token: otherToken });
      const owner = await other.tenantOf('tenantA');
      const made = [];
      for (let i = 0; i < 4; i++) made.push(await insertLibraryRecord(other.db, owner, { validFrom: same, createdAt: same }));
      const res = await other.call('GET', `${LIBRARY}?sort=createdAt:desc`, { token: otherToken });
      expect(res.body.data.map((r: { id: string }) => r.id)).toEqual(sorted(made));
      const byIssue = await other.call('GET', LIBRARY, { token: otherToken });
      expect(byIssue.body.data.map((r: { id: string }) => r.id)).toEqual(sorted(made));
    } finally {
      await other.close();
    }
  });

  it('pages with limit and offset; hasMore counts rows and failures shown', async () => {
    const page = await t.call('GET', `${LIBRARY}?limit=2&offset=1`, { token });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.pagination).toEqual({ total: 6, limit: 2, offset: 1, hasMore: true });
    const last = await t.call('GET', `${LIBRARY}?limit=2&offset=4`, { token });
    expect(last.body.pagination.hasMore).toBe(false);
  });

  it('a record without its child row is listed as a RECORD_UNREADABLE failure, counted in the total', async () => {
    const other = await startTestApp();
    try {
      const otherToken = await other.token('tenantA');
      await other.call('GET', LIBRARY, { token: otherToken });
      const [orphan] = await other.db
        .insert(libraryRecords)
        .values({ tenantId: await other.tenantOf('tenantA'), origin: 'EXTERNAL' })
        .returning();
      const res = await other.call('GET', LIBRARY, { token: otherToken });
      expect(res.body).toEqual({
        data: [],
        failures: [{ id: orphan!.id, code: 'RECORD_UNREADABLE', message: 'This credential record cannot be read.' }],
        pagination: { total: 1, limit: 20, offset: 0, hasMore: false },
      });
      const detail = await other.call('GET', `${LIBRARY}/${orphan!.id}`, { token: otherToken });
      expect(detail.status).toBe(500);
      expect(detail.body.code).toBe('RECORD_UNREADABLE');
    } finally {
      await other.close();
    }
  });
});
