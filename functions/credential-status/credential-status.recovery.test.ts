import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { statusListLockKey } from '../../core/credential-status/status-list-lock.ts';
import { startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';
import { startFaultProxy, type FaultProxy } from '../../test/rig/fault-proxy.ts';
import { insertVcInstance, pointVcInstance, vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { entryRow, providerBit, recordCredential } from '../../test/rig/status-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

/**
 * A status operation whose outcome is lost: the VC service sits behind a proxy that cuts it off at
 * chosen moments. The entry stays pending, blocks its VC instance's config change and delete, and
 * reconcile settles it against the provider's real bit once the deadline and grace have passed.
 */
let t: TestApp;
let vc: VcService;
let proxy: FaultProxy;
let token: string;
let tenantId: string;
let instanceId: string;
let did: string;

const BUDGET_MS = 1500;
const GRACE_MS = 300;

beforeAll(async () => {
  [t, vc] = await Promise.all([
    startTestApp({
      env: {
        FETCH_ALLOW_PRIVATE_URLS: 'true',
        CREDENTIAL_STATUS_MUTATION_ENABLED: 'true',
        CREDENTIAL_STATUS_OPERATION_BUDGET_MS: String(BUDGET_MS),
        CREDENTIAL_STATUS_RECONCILE_GRACE_MS: String(GRACE_MS),
        CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: '200',
      },
    }),
    startVcService(),
  ]);
  proxy = await startFaultProxy(vc.url);
  token = await t.token('tenantA');
  await t.call('GET', '/api/v1/services', { token });
  tenantId = await t.tenantOf('tenantA');
  instanceId = (await insertVcInstance(t.db, t.services.secretBox, tenantId, { url: proxy.url, apiKey: vc.apiKey })).id;
  did = (await vcAdapterOf(vc).createDid('status-recovery.example.com')).did;
});
afterAll(async () => {
  await t.close();
  await proxy.close();
  await vc.stop();
});
beforeEach(() => proxy.reset());

const SET = /setBitstringStatus/;
const CHECK = /checkBitstringStatus/;
/** A credential on status lists of its own (a fresh issuer DID), so a pending operation of one test never holds another's list. */
const credential = async (purposes = ['suspension'], issuer?: string) =>
  recordCredential(t, { tenantId, vc, instanceId, did: issuer ?? (await vcAdapterOf(vc).createDid(`recovery-${crypto.randomUUID().slice(0, 8)}.example.com`)).did, purposes });
const put = (id: string, purpose: string, value: boolean, version: number) =>
  t.call('PUT', `/api/v1/credentials/${id}/status/${purpose}`, { token, body: { value }, headers: { 'if-version': String(version) } });
const reconcile = (id: string, purpose: string, version: number) =>
  t.call('POST', `/api/v1/credentials/${id}/status/${purpose}/reconcile`, { token, body: {}, headers: { 'if-version': String(version) } });
const entryView = async (id: string) => (await t.call('GET', `/api/v1/credentials/${id}/status`, { token })).body.entries[0];
/** Waits until a pending operation's deadline plus grace has passed (no assertion on time). */
const outlive = async (pending: { deadline: string }) => {
  const wait = new Date(pending.deadline).getTime() + GRACE_MS - Date.now() + 50;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
};

describe('an operation whose answer is lost', () => {
  it('stays pending (503 STATUS_OUTCOME_UNKNOWN) though the bit changed; blocks its instance; reconcile settles it to the real bit', async () => {
    const { id, entries } = await credential();
    const entry = entries[0]!;
    proxy.rule(SET, 'lose-answer');
    proxy.rule(CHECK, 'down');
    const res = await put(id, 'suspension', true, 1);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('STATUS_OUTCOME_UNKNOWN');
    expect(await providerBit(vc, entry)).toBe(true); // the VC service did act
    const pending = await entryView(id);
    expect(pending).toMatchObject({ value: false, version: 1, pending: { value: true, since: expect.any(String), deadline: expect.any(String) } });

    // While pending: another change and an early reconcile are refused; nothing changes.
    const again = await put(id, 'suspension', false, 1);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('STATUS_OPERATION_IN_PROGRESS');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const early = await reconcile(id, 'suspension', 1);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'STATUS_OPERATION_IN_PROGRESS', retryAfterSeconds: expect.any(Number) });

    // Its VC instance: a changed config and a delete (even forced) are 409; name and an unchanged config are fine.
    const changed = await t.call('PATCH', `/api/v1/services/${instanceId}`, { token, body: { config: { baseUrl: vc.url } } });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('SERVICE_INSTANCE_STATUS_PENDING');
    expect((await t.call('PATCH', `/api/v1/services/${instanceId}`, { token, body: { config: { baseUrl: proxy.url } } })).status).toBe(200);
    expect((await t.call('PATCH', `/api/v1/services/${instanceId}`, { token, body: { name: 'Renamed while pending' } })).status).toBe(200);
    for (const query of ['', '?force=true']) {
      const deleted = await t.call('DELETE', `/api/v1/services/${instanceId}${query}`, { token });
      expect(deleted.status, query).toBe(409);
      expect(deleted.body.code).toBe('SERVICE_INSTANCE_STATUS_PENDING');
    }
    expect(await entryView(id)).toEqual(pending);

    // Deleting the credential would drop the pending record: refused, the record stays.
    const deleted = await t.call('DELETE', `/api/v1/credentials/${id}`, { token });
    expect(deleted.status).toBe(409);
    expect(deleted.body.code).toBe('STATUS_OPERATION_IN_PROGRESS');
    expect(await entryView(id)).toEqual(pending);

    // Past deadline + grace: a change needs recovery first; reconcile reads the real bit.
    proxy.reset();
    await outlive(pending.pending);
    const late = await put(id, 'suspension', false, 1);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('STATUS_RECOVERY_REQUIRED');
    const settled = await reconcile(id, 'suspension', 1);
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ value: true, version: 2, pending: null, valueChangedAt: expect.any(String) });
    expect(await entryRow(t, entry.id)).toMatchObject({ value: true, pendingSince: null, pendingValue: null, pendingDeadline: null });
    expect(proxy.forwarded.filter((p) => SET.test(p))).toHaveLength(1); // reconcile never sets

    // Nothing pending any more: the instance may change again, and the entry too.
    expect((await t.call('PATCH', `/api/v1/services/${instanceId}`, { token, body: { config: { apiKey: vc.apiKey } } })).status).toBe(200);
    expect((await put(id, 'suspension', false, 2)).body).toMatchObject({ value: false, version: 3 });
    expect((await t.call('DELETE', `/api/v1/credentials/${id}`, { token })).status).toBe(204);
  });

  it('when the VC service never got the request, reconcile settles the entry to the unchanged bit', async () => {
    const { id, entries } = await credential();
    proxy.rule(/./, 'down');
    const res = await put(id, 'suspension', true, 1);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('STATUS_OUTCOME_UNKNOWN');
    const pending = await entryView(id);
    proxy.reset();
    await outlive(pending.pending);
    const settled = await reconcile(id, 'suspension', 1);
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ value: false, version: 2, pending: null, valueChangedAt: null });
    expect(await providerBit(vc, entries[0]!)).toBe(false);
  });

  it('reconcile while the VC service is still down: 502 VC_SERVICE_UNAVAILABLE, the entry stays pending', async () => {
    const { id } = await credential();
    proxy.rule(/./, 'down');
    expect((await put(id, 'suspension', true, 1)).status).toBe(503);
    const pending = await entryView(id);
    await outlive(pending.pending);
    const res = await reconcile(id, 'suspension', 1);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('VC_SERVICE_UNAVAILABLE');
    expect(await entryView(id)).toEqual(pending);
    const fresh = await t.call('GET', `/api/v1/credentials/${id}/status?fresh=true`, { token });
    expect(fresh.status).toBe(200);
    expect(fresh.body.observed).toEqual([]);
    expect(fresh.body.failures).toEqual([{ entryId: pending.entryId, statusPurpose: 'suspension', code: 'VC_SERVICE_UNAVAILABLE', message: expect.any(String) }]);
  });
});

describe('a pending operation whose instance now points at another VC service', () => {
  it('reconcile is 409 STATUS_PROVIDER_CHANGED and changes nothing, unless acceptProviderChange is true', async () => {
    // The instance config is changed behind the API (as a boot re-encrypting the system instance from its settings would).
    const own = await insertVcInstance(t.db, t.services.secretBox, tenantId, { url: proxy.url, apiKey: vc.apiKey });
    const { id } = await recordCredential(t, { tenantId, vc, instanceId: own.id, did, purposes: ['suspension'] });
    proxy.rule(SET, 'lose-answer');
    proxy.rule(CHECK, 'down');
    expect((await put(id, 'suspension', true, 1)).body.code).toBe('STATUS_OUTCOME_UNKNOWN');
    proxy.reset();
    await pointVcInstance(t, own.id, vc);
    const pending = await entryView(id);
    await outlive(pending.pending);
    const refused = await reconcile(id, 'suspension', 1);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('STATUS_PROVIDER_CHANGED');
    expect(await entryView(id)).toEqual(pending);
    const accepted = await t.call('POST', `/api/v1/credentials/${id}/status/suspension/reconcile`, {
      token,
      body: { acceptProviderChange: true },
      headers: { 'if-version': '1' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ value: true, version: 2, pending: null });
  });
});

describe('an operation whose answer is lost or wrong but whose read-back works', () => {
  it('answer lost, bit changed: 200, settled to the new value', async () => {
    const { id, entries } = await credential();
    proxy.rule(SET, 'lose-answer');
    const res = await put(id, 'suspension', true, 1);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ value: true, version: 2 });
    expect(await entryRow(t, entries[0]!.id)).toMatchObject({ value: true, pendingSince: null });
  });

  it('request never arrived: 502 VC_SERVICE_UNAVAILABLE, not pending, value unchanged', async () => {
    const { id, entries } = await credential();
    proxy.rule(SET, 'down');
    const res = await put(id, 'suspension', true, 1);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('VC_SERVICE_UNAVAILABLE');
    expect(await entryRow(t, entries[0]!.id)).toMatchObject({ value: false, pendingSince: null });
    expect(await providerBit(vc, entries[0]!)).toBe(false);
  });

  it('an answer of the wrong shape with the bit changed: 200; with no read-back: 502 VC_STATUS_RESPONSE_INVALID and pending', async () => {
    const first = await credential();
    proxy.rule(SET, 'garble');
    expect((await put(first.id, 'suspension', true, 1)).body).toMatchObject({ value: true, version: 2 });

    const second = await credential();
    proxy.rule(CHECK, 'down');
    const res = await put(second.id, 'suspension', true, 1);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('VC_STATUS_RESPONSE_INVALID');
    expect((await entryView(second.id)).pending).toMatchObject({ value: true });
  });

  it('refused while the read-back is down: 422 VC_REJECTED and the claim ends (a refusal changed nothing)', async () => {
    const { id, entries } = await credential();
    proxy.rule(SET, 'refuse');
    proxy.rule(CHECK, 'down');
    const res = await put(id, 'suspension', true, 1);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VC_REJECTED');
    expect(await entryRow(t, entries[0]!.id)).toMatchObject({ value: false, version: 1, pendingSince: null, pendingValue: null });
  });

  it('acknowledged but the list shows the other bit: 409 STATUS_OUTCOME_MISMATCH, the observed bit recorded', async () => {
    const { id, entries } = await credential();
    proxy.rule(SET, 'ack-only');
    const res = await put(id, 'suspension', true, 1);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('STATUS_OUTCOME_MISMATCH');
    expect(await entryRow(t, entries[0]!.id)).toMatchObject({ value: false, pendingSince: null, version: 2 });
  });
});

describe('the record write after the VC service acted', () => {
  /** A test-only trigger on this test database makes the settling update of entries fail or vanish. */
  const breakSettle = (effect: 'fail' | 'skip') =>
    t.db.execute(
      sql.raw(`create or replace function break_settle() returns trigger language plpgsql as $$ begin
        ${effect === 'fail' ? "raise exception 'settle broken by the test'" : 'return null'}; end $$;
        create trigger break_settle before update on credential_status_entries for each row
        when (old.pending_since is not null and new.pending_since is null) execute function break_settle();`),
    );
  const repairSettle = () => t.db.execute(sql.raw('drop trigger if exists break_settle on credential_status_entries'));

  it('fails: 503 STATUS_PERSISTENCE_FAILED, the entry stays pending; reconcile records the changed bit', async () => {
    const { id, entries } = await credential();
    await breakSettle('fail');
    try {
      const res = await put(id, 'suspension', true, 1);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('STATUS_PERSISTENCE_FAILED');
    } finally {
      await repairSettle();
    }
    expect(await providerBit(vc, entries[0]!)).toBe(true);
    const pending = await entryView(id);
    expect(pending).toMatchObject({ value: false, version: 1, pending: { value: true } });
    await outlive(pending.pending);
    expect((await reconcile(id, 'suspension', 1)).body).toMatchObject({ value: true, version: 2, pending: null });
  });

  it('finds the operation already settled by someone else: 503 STATUS_PERSISTENCE_UNCERTAIN', async () => {
    const { id } = await credential();
    await breakSettle('skip');
    try {
      const res = await put(id, 'suspension', true, 1);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('STATUS_PERSISTENCE_UNCERTAIN');
    } finally {
      await repairSettle();
    }
  });
});

describe('the status-list lock', () => {
  it('a live operation on another entry of the same list holds it: 503 STATUS_LIST_BUSY after the wait; once that operation is past its deadline and grace, the list is free', async () => {
    const issuer = (await vcAdapterOf(vc).createDid('shared-list.example.com')).did;
    const first = await credential(['suspension'], issuer);
    const second = await credential(['suspension'], issuer);
    expect(second.entries[0]!.statusListCredential).toBe(first.entries[0]!.statusListCredential);
    proxy.rule(/./, 'down');
    expect((await put(first.id, 'suspension', true, 1)).body.code).toBe('STATUS_OUTCOME_UNKNOWN');
    proxy.reset();
    const busy = await put(second.id, 'suspension', true, 1);
    expect(busy.status).toBe(503);
    expect(busy.body.code).toBe('STATUS_LIST_BUSY');
    expect(await entryRow(t, second.entries[0]!.id)).toMatchObject({ value: false, version: 1, pendingSince: null });
    await outlive((await entryView(first.id)).pending);
    expect((await put(second.id, 'suspension', true, 1)).body).toMatchObject({ value: true, version: 2 });
  });
  it('its advisory lock held elsewhere for longer than CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: 503 STATUS_LIST_BUSY, nothing claimed or sent', async () => {
    const { id, entries } = await credential();
    const entry = entries[0]!;
    const sent = proxy.forwarded.length;
    const res = await t.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${statusListLockKey(entry.statusListCredential)}))`);
      return put(id, 'suspension', true, 1);
    });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('STATUS_LIST_BUSY');
    expect(await entryRow(t, entry.id)).toMatchObject({ value: false, version: 1, pendingSince: null });
    expect(proxy.forwarded.length).toBe(sent);
    expect((await put(id, 'suspension', true, 1)).status).toBe(200);
  });
});
