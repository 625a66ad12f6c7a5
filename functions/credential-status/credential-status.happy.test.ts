import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VcService } from '../../vc-service/test/vc-harness.ts';
import { vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { entryRow, providerBit, recordCredential, startStatusRig } from '../../test/rig/status-fixtures.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let vc: VcService;
let token: string;
let tenantId: string;
let provider: Awaited<ReturnType<typeof startStatusRig>>['provider'];

beforeAll(async () => {
  ({ t, vc, token, tenantId, provider } = await startStatusRig('status-happy.example.com'));
});
afterAll(async () => {
  await t.close();
  await vc.stop();
});

const credential = (purposes = ['revocation', 'suspension']) =>
  recordCredential(t, { tenantId, vc, instanceId: provider.instance.id, did: provider.did, purposes });
const statusOf = (id: string, query = '') => t.call('GET', `/api/v1/credentials/${id}/status${query}`, { token });
const put = (id: string, purpose: string, value: boolean, version: number | string) =>
  t.call('PUT', `/api/v1/credentials/${id}/status/${purpose}`, { token, body: { value }, headers: { 'if-version': String(version) } });
const reconcile = (id: string, purpose: string, version: number, body: unknown = {}) =>
  t.call('POST', `/api/v1/credentials/${id}/status/${purpose}/reconcile`, { token, body, headers: { 'if-version': String(version) } });
const publishedList = async (url: string) => (await fetch(url)).text();

describe('GET /credentials/{id}/status', () => {
  it('shows capture, attribution and each entry with its value, version and no pending operation; not cached', async () => {
    const { id, entries } = await credential();
    const res = await statusOf(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      capture: 'CAPTURED',
      statusCaptureError: null,
      attribution: { instanceId: provider.instance.id, source: 'ISSUANCE', at: expect.any(String) },
      entries: entries.map((e) => ({
        entryId: e.id,
        statusPurpose: e.statusPurpose,
        value: false,
        observedAt: e.observedAt!.toISOString(),
        valueChangedAt: null,
        version: 1,
        pending: null,
      })),
    });
  });

  it('fresh=true adds what the VC service shows now, and writes nothing', async () => {
    const { id, entries } = await credential();
    const suspension = entries.find((e) => e.statusPurpose === 'suspension')!;
    await vcAdapterOf(vc).setStatus(suspension.descriptor as never, provider.did, true);
    const res = await statusOf(id, '?fresh=true');
    expect(res.status).toBe(200);
    expect(res.body.failures).toEqual([]);
    expect(res.body.observed).toEqual(
      expect.arrayContaining([
        { entryId: suspension.id, statusPurpose: 'suspension', value: true, observedAt: expect.any(String) },
        { entryId: entries.find((e) => e.statusPurpose === 'revocation')!.id, statusPurpose: 'revocation', value: false, observedAt: expect.any(String) },
      ]),
    );
    expect(res.body.entries.find((e: { statusPurpose: string }) => e.statusPurpose === 'suspension')).toMatchObject({ value: false, version: 1 });
    expect((await statusOf(id, '?fresh=false')).body.observed).toBeUndefined();
  });
});

describe('PUT /credentials/{id}/status/{purpose}', () => {
  it('suspends and un-suspends: the VC service list changes each time, value and version follow', async () => {
    const { id, entries } = await credential();
    const entry = entries.find((e) => e.statusPurpose === 'suspension')!;
    const before = await publishedList(entry.statusListCredential);

    const suspended = await put(id, 'suspension', true, 1);
    expect(suspended.status).toBe(200);
    expect(suspended.body).toEqual({ entryId: entry.id, statusPurpose: 'suspension', value: true, observedAt: expect.any(String), version: 2 });
    expect(await providerBit(vc, entry)).toBe(true);
    const during = await publishedList(entry.statusListCredential);
    expect(during).not.toBe(before);
    const view = (await statusOf(id)).body.entries.find((e: { entryId: string }) => e.entryId === entry.id);
    expect(view).toMatchObject({ value: true, version: 2, pending: null, valueChangedAt: expect.any(String) });

    const resumed = await put(id, 'suspension', false, 2);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ value: false, version: 3 });
    expect(await providerBit(vc, entry)).toBe(false);
    expect(await publishedList(entry.statusListCredential)).not.toBe(during);
    // The revocation entry of the same credential is untouched.
    expect(await entryRow(t, entries.find((e) => e.statusPurpose === 'revocation')!.id)).toMatchObject({ value: false, version: 1 });
  });

  it('revokes; revoking again is accepted and changes nothing upstream', async () => {
    const { id, entries } = await credential(['revocation']);
    const entry = entries[0]!;
    const revoked = await put(id, 'revocation', true, 1);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ value: true, version: 2 });
    expect(await providerBit(vc, entry)).toBe(true);
    const list = await publishedList(entry.statusListCredential);
    const again = await put(id, 'revocation', true, ' +002 ');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ value: true, version: 3 });
    expect(await publishedList(entry.statusListCredential)).toBe(list);
    const row = await entryRow(t, entry.id);
    expect(row.valueChangedAt!.getTime()).toBeLessThanOrEqual(new Date(revoked.body.observedAt).getTime());
  });
});

describe('POST /credentials/{id}/status/{purpose}/reconcile', () => {
  it("records the provider's bit when the two differ, bumping the version; never sets the bit", async () => {
    const { id, entries } = await credential(['suspension']);
    const entry = entries[0]!;
    await vcAdapterOf(vc).setStatus(entry.descriptor as never, provider.did, true);
    const res = await reconcile(id, 'suspension', 1);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      entryId: entry.id,
      statusPurpose: 'suspension',
      value: true,
      observedAt: expect.any(String),
      valueChangedAt: expect.any(String),
      version: 2,
      pending: null,
    });
    expect(await providerBit(vc, entry)).toBe(true);
    const same = await reconcile(id, 'suspension', 2, { acceptProviderChange: true });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ value: true, version: 3, valueChangedAt: res.body.valueChangedAt });
  });
});

describe('the API document', () => {
  it('lists the three status routes with their If-Version header and error codes', async () => {
    const doc = (await t.call('GET', '/api-docs/openapi.json')).body;
    const put = doc.paths['/api/v1/credentials/{id}/status/{purpose}'].put;
    expect(doc.paths['/api/v1/credentials/{id}/status'].get).toBeDefined();
    expect(doc.paths['/api/v1/credentials/{id}/status/{purpose}/reconcile'].post).toBeDefined();
    const reconcilePost = doc.paths['/api/v1/credentials/{id}/status/{purpose}/reconcile'].post;
    for (const route of [put, reconcilePost]) {
      expect(route.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'If-Version', in: 'header' })]));
      expect(route.responses['400'].description).toContain('INVALID_IF_VERSION');
      expect(route.responses['409'].description).toContain('VERSION_CONFLICT');
    }
    expect(reconcilePost.responses['409'].description).toContain('STATUS_PROVIDER_CHANGED');
    expect(reconcilePost.responses['409'].description).not.toContain('STATUS_IRREVERSIBLE');
    expect(put.responses['409'].description).toContain('STATUS_IRREVERSIBLE');
    expect(put.responses['503'].description).toContain('STATUS_MUTATION_DISABLED');
  });
});
