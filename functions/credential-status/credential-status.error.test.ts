import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialStatusEntries, credentials, serviceInstances } from '../../db/schema/index.ts';
import type { VcService } from '../../vc-service/test/vc-harness.ts';
import { vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { entryRow, providerBit, recordCredential, startStatusRig, statusProviderFixture } from '../../test/rig/status-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let vc: VcService;
let token: string;
let tenantId: string;
let provider: Awaited<ReturnType<typeof statusProviderFixture>>;

beforeAll(async () => {
  ({ t, vc, token, tenantId, provider } = await startStatusRig('status-errors.example.com'));
});
afterAll(async () => {
  await t.close();
  await vc.stop();
});

const credential = (purposes = ['revocation']) => recordCredential(t, { tenantId, vc, instanceId: provider.instance.id, did: provider.did, purposes });
const put = (id: string, purpose: string, body: unknown, version?: string) =>
  t.call('PUT', `/api/v1/credentials/${id}/status/${purpose}`, { token, body, headers: version === undefined ? {} : { 'if-version': version } });
const reconcile = (id: string, purpose: string, body: unknown, version?: string) =>
  t.call('POST', `/api/v1/credentials/${id}/status/${purpose}/reconcile`, { token, body, headers: version === undefined ? {} : { 'if-version': version } });

/** The refusal left the entry and the provider's bit as they were. */
const untouched = async (entry: typeof credentialStatusEntries.$inferSelect) => {
  expect(await entryRow(t, entry.id)).toEqual(entry);
  expect(await providerBit(vc, entry)).toBe(false);
};

describe('malformed requests: 400 naming the field, nothing changes', () => {
  it('If-Version missing or malformed: 400 INVALID_IF_VERSION on PUT and reconcile', async () => {
    const { id, entries } = await credential();
    for (const version of [undefined, '', 'abc', '0', '-1', '1.0', '2147483648']) {
      for (const res of [await put(id, 'revocation', { value: true }, version), await reconcile(id, 'revocation', {}, version)]) {
        expect(res.status, String(version)).toBe(400);
        expect(res.body).toEqual({ error: expect.stringMatching(/^If-Version: /), code: 'INVALID_IF_VERSION' });
      }
    }
    await untouched(entries[0]!);
  });

  it('a body without a boolean value, or not JSON: 400 naming value', async () => {
    const { id, entries } = await credential();
    for (const [body, message] of [
      [{}, 'value: is required'],
      [{ value: 'true' }, 'value: must be a boolean'],
      [{ value: null }, 'value: must not be null'],
      [{ value: 1 }, 'value: must be a boolean'],
    ] as const) {
      const res = await put(id, 'revocation', body, '1');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: message, code: 'VALIDATION_FAILED' });
    }
    const raw = await t.call('PUT', `/api/v1/credentials/${id}/status/revocation`, { token, rawBody: '{"value":', headers: { 'if-version': '1' } });
    expect(raw.status).toBe(400);
    expect((await reconcile(id, 'revocation', { acceptProviderChange: 'yes' }, '1')).body).toEqual({
      error: 'acceptProviderChange: must be a boolean',
      code: 'VALIDATION_FAILED',
    });
    await untouched(entries[0]!);
  });

  it('a purpose other than revocation or suspension: 400 STATUS_PURPOSE_UNSUPPORTED', async () => {
    const { id, entries } = await credential();
    for (const purpose of ['expiry', 'Revocation', 'message', '%20']) {
      for (const res of [await put(id, purpose, { value: true }, '1'), await reconcile(id, purpose, {}, '1')]) {
        expect(res.status, purpose).toBe(400);
        expect(res.body.code).toBe('STATUS_PURPOSE_UNSUPPORTED');
      }
    }
    await untouched(entries[0]!);
  });

  it('fresh other than true or false: 400 naming fresh', async () => {
    const { id } = await credential();
    const res = await t.call('GET', `/api/v1/credentials/${id}/status?fresh=yes`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'fresh: must be true or false', code: 'VALIDATION_FAILED' });
  });
});

describe('odd input never yields a 500', () => {
  it('bodies that are not objects, other content types, repeated and oversized parameters: 4xx, nothing changes', async () => {
    const { id, entries } = await credential();
    const path = `/api/v1/credentials/${id}/status/revocation`;
    const sends = [
      t.call('PUT', path, { token, rawBody: '[]', headers: { 'if-version': '1' } }),
      t.call('PUT', path, { token, rawBody: '"x"', headers: { 'if-version': '1' } }),
      t.call('PUT', path, { token, rawBody: 'value=true', headers: { 'if-version': '1', 'content-type': 'application/x-www-form-urlencoded' } }),
      t.call('PUT', path, { token, body: { value: true }, headers: { 'if-version': '9'.repeat(400) } }),
      t.call('PUT', `/api/v1/credentials/${'x'.repeat(300)}/status/revocation`, { token, body: { value: true }, headers: { 'if-version': '1' } }),
      t.call('PUT', `/api/v1/credentials/${id}/status/${'r'.repeat(300)}`, { token, body: { value: true }, headers: { 'if-version': '1' } }),
      t.call('POST', `${path}/reconcile`, { token, rawBody: 'null', headers: { 'if-version': '1' } }),
      t.call('GET', `/api/v1/credentials/${id}/status?fresh=true&fresh=false`, { token }),
      t.call('GET', `/api/v1/credentials/%E0%A4%A/status`, { token }),
    ];
    for (const res of await Promise.all(sends)) {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
    }
    await untouched(entries[0]!);
  });

  it('two changes with the same If-Version at once: one applies, the other is 409 VERSION_CONFLICT (or 503 STATUS_LIST_BUSY)', async () => {
    const { id, entries } = await credential(['suspension']);
    const results = await Promise.all([true, true].map(() => put(id, 'suspension', { value: true }, '1')));
    expect(results.map((r) => r.status).sort()).toEqual([200, expect.any(Number)]);
    const loser = results.find((r) => r.status !== 200)!;
    expect(['VERSION_CONFLICT', 'STATUS_OPERATION_IN_PROGRESS', 'STATUS_LIST_BUSY']).toContain(loser.body.code);
    expect(await entryRow(t, entries[0]!.id)).toMatchObject({ value: true, version: 2, pendingSince: null });
  });
});

describe('refusals of the status rules', () => {
  it('an unknown credential is 404 on every route; a NUL in the id too', async () => {
    for (const id of ['no-such-credential', 'abc%00def']) {
      for (const res of [
        await t.call('GET', `/api/v1/credentials/${id}/status`, { token }),
        await put(id, 'revocation', { value: true }, '1'),
        await reconcile(id, 'revocation', {}, '1'),
      ]) {
        expect(res.status, id).toBeGreaterThanOrEqual(400);
        expect(res.status, id).toBeLessThan(500);
      }
    }
    const missing = await t.call('GET', '/api/v1/credentials/no-such-credential/status', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Credential not found', code: 'NOT_FOUND' });
  });

  it('an external credential: 403 EXTERNAL_CREDENTIAL_STATUS_NOT_MANAGEABLE on every route', async () => {
    const { id } = await recordCredential(t, { tenantId, vc, instanceId: null, did: provider.did, origin: 'EXTERNAL' });
    for (const res of [
      await t.call('GET', `/api/v1/credentials/${id}/status?fresh=true`, { token }),
      await put(id, 'revocation', { value: true }, '1'),
      await reconcile(id, 'revocation', {}, '1'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('EXTERNAL_CREDENTIAL_STATUS_NOT_MANAGEABLE');
    }
  });

  it('no entry for the purpose: 404 STATUS_ENTRY_NOT_FOUND', async () => {
    const { id, entries } = await credential(['revocation']);
    for (const res of [await put(id, 'suspension', { value: true }, '1'), await reconcile(id, 'suspension', {}, '1')]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('STATUS_ENTRY_NOT_FOUND');
    }
    await untouched(entries[0]!);
  });

  it('un-revoking: 409 STATUS_IRREVERSIBLE, before and after a revocation', async () => {
    const { id, entries } = await credential();
    const first = await put(id, 'revocation', { value: false }, '1');
    expect(first.status).toBe(409);
    expect(first.body).toEqual({ error: 'value: a revocation cannot be undone', code: 'STATUS_IRREVERSIBLE' });
    await untouched(entries[0]!);
    expect((await put(id, 'revocation', { value: true }, '1')).status).toBe(200);
    const after = await put(id, 'revocation', { value: false }, '2');
    expect(after.body.code).toBe('STATUS_IRREVERSIBLE');
    expect(await providerBit(vc, entries[0]!)).toBe(true);
  });

  it('a stale If-Version: 409 VERSION_CONFLICT on PUT and reconcile', async () => {
    const { id, entries } = await credential(['suspension']);
    for (const version of ['2', '7']) {
      for (const res of [await put(id, 'suspension', { value: true }, version), await reconcile(id, 'suspension', {}, version)]) {
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('VERSION_CONFLICT');
      }
    }
    expect((await put(id, 'suspension', { value: true }, '1')).status).toBe(200);
    expect((await put(id, 'suspension', { value: false }, '1')).body.code).toBe('VERSION_CONFLICT');
    expect(await entryRow(t, entries[0]!.id)).toMatchObject({ value: true, version: 2 });
  });

  it('an entry that is not a single-bit BitstringStatusListEntry: 422 STATUS_ENTRY_UNSUPPORTED', async () => {
    const { id, entries } = await credential();
    await t.db.update(credentialStatusEntries).set({ type: 'StatusList2021Entry' }).where(eq(credentialStatusEntries.id, entries[0]!.id));
    for (const res of [await put(id, 'revocation', { value: true }, '1'), await reconcile(id, 'revocation', {}, '1')]) {
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('STATUS_ENTRY_UNSUPPORTED');
    }
    const fresh = await t.call('GET', `/api/v1/credentials/${id}/status?fresh=true`, { token });
    expect(fresh.body.failures).toEqual([{ entryId: entries[0]!.id, statusPurpose: 'revocation', code: 'STATUS_ENTRY_UNSUPPORTED', message: expect.any(String) }]);
    expect(await providerBit(vc, entries[0]!)).toBe(false);
  });

  it('the VC instance is no longer recorded: 409 STATUS_METADATA_UNAVAILABLE; fresh reads list it as a failure', async () => {
    const { id, entries } = await credential();
    await t.db.update(credentials).set({ vcServiceInstanceId: null }).where(eq(credentials.id, id));
    for (const res of [await put(id, 'revocation', { value: true }, '1'), await reconcile(id, 'revocation', {}, '1')]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('STATUS_METADATA_UNAVAILABLE');
    }
    const fresh = await t.call('GET', `/api/v1/credentials/${id}/status?fresh=true`, { token });
    expect(fresh.status).toBe(200);
    expect(fresh.body.attribution).toBeNull();
    expect(fresh.body.observed).toEqual([]);
    expect(fresh.body.failures).toEqual([{ entryId: entries[0]!.id, statusPurpose: 'revocation', code: 'STATUS_METADATA_UNAVAILABLE', message: expect.any(String) }]);
    await untouched(entries[0]!);
  });

  it("the VC instance's config cannot be decrypted: 500 RECORD_UNREADABLE (its own code), nothing claimed", async () => {
    const broken = await statusProviderFixture(t, tenantId, vc, 'status-unreadable.example.com');
    const { id, entries } = await recordCredential(t, { tenantId, vc, instanceId: broken.instance.id, did: broken.did });
    await t.db.update(serviceInstances).set({ configEncrypted: 'not-a-sealed-value' }).where(eq(serviceInstances.id, broken.instance.id));
    for (const res of [await put(id, 'revocation', { value: true }, '1'), await reconcile(id, 'revocation', {}, '1')]) {
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'The VC service instance of this credential could not be read', code: 'RECORD_UNREADABLE' });
    }
    await untouched(entries[0]!);
  });

  it('the VC service refuses the change: 422 VC_REJECTED, not pending, the bit unchanged', async () => {
    const { id, entries } = await credential();
    const other = (await vcAdapterOf(vc).createDid('someone-else.example.com')).did;
    await t.db.update(credentialStatusEntries).set({ statusListIssuer: other }).where(eq(credentialStatusEntries.id, entries[0]!.id));
    const res = await put(id, 'revocation', { value: true }, '1');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VC_REJECTED');
    expect(await entryRow(t, entries[0]!.id)).toMatchObject({ value: false, pendingSince: null });
    expect(await providerBit(vc, entries[0]!)).toBe(false);
  });
});

describe('CREDENTIAL_STATUS_MUTATION_ENABLED unset', () => {
  it('PUT is 503 STATUS_MUTATION_DISABLED and changes nothing; reading and reconcile still work', async () => {
    const off = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
    try {
      const offToken = await off.token('tenantA');
      await off.call('GET', '/api/v1/services', { token: offToken });
      const offTenant = await off.tenantOf('tenantA');
      const own = await statusProviderFixture(off, offTenant, vc, 'status-disabled.example.com');
      const { id, entries } = await recordCredential(off, { tenantId: offTenant, vc, instanceId: own.instance.id, did: own.did });
      const res = await off.call('PUT', `/api/v1/credentials/${id}/status/revocation`, { token: offToken, body: { value: true }, headers: { 'if-version': '1' } });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('STATUS_MUTATION_DISABLED');
      expect(await providerBit(vc, entries[0]!)).toBe(false);
      expect((await off.call('GET', `/api/v1/credentials/${id}/status`, { token: offToken })).status).toBe(200);
      const rec = await off.call('POST', `/api/v1/credentials/${id}/status/revocation/reconcile`, { token: offToken, body: {}, headers: { 'if-version': '1' } });
      expect(rec.status).toBe(200);
      expect(rec.body).toMatchObject({ value: false, version: 2 });
    } finally {
      await off.close();
    }
  });
});
