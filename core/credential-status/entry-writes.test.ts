import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';
import { vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { entryRow, recordCredential, statusProviderFixture } from '../../test/rig/status-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { claimOperation, settleEntry } from './entry-writes.ts';

/** The fences of the entry writes, in interleavings the routes cannot be made to hit on demand. */
let t: TestApp;
let vc: VcService;
let tenantId: string;
let provider: Awaited<ReturnType<typeof statusProviderFixture>>;

beforeAll(async () => {
  [t, vc] = await Promise.all([startTestApp(), startVcService()]);
  const token = await t.token('tenantA');
  await t.call('GET', '/api/v1/services', { token });
  tenantId = await t.tenantOf('tenantA');
  provider = await statusProviderFixture(t, tenantId, vc, 'entry-writes.example.com');
});
afterAll(async () => {
  await t.close();
  await vc.stop();
});

const claim = { value: true, ifVersion: 1, budgetMs: 60_000, graceMs: 0, lockAcquireMs: 100, provider: 'p' };
const freshEntry = async () => {
  const issuer = (await vcAdapterOf(vc).createDid(`writes-${crypto.randomUUID().slice(0, 8)}.example.com`)).did;
  return (await recordCredential(t, { tenantId, vc, instanceId: provider.instance.id, did: issuer, purposes: ['suspension'] })).entries[0]!;
};

describe('status entry writes', () => {
  it('a reconcile that read the entry before a claim never erases that claim', async () => {
    const entry = await freshEntry();
    const claimed = await claimOperation(t.db, entry, provider.instance.id, claim);
    // The reconcile saw no pending operation at version 1.
    expect(await settleEntry(t.db, entry.id, false, { version: 1, pendingSince: null })).toBeUndefined();
    expect(await entryRow(t, entry.id)).toMatchObject({ pendingValue: true, pendingSince: claimed.pendingSince, version: 1 });
    // The operation's own settle lands.
    expect(await settleEntry(t.db, entry.id, true, { pendingSince: claimed.pendingSince })).toMatchObject({ value: true, version: 2, pendingSince: null, pendingProvider: null });
  });

  it('a claim needs the version read and no pending operation; a settle needs its own claim', async () => {
    const entry = await freshEntry();
    await expect(claimOperation(t.db, entry, provider.instance.id, { ...claim, ifVersion: 2 })).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    const first = await claimOperation(t.db, entry, provider.instance.id, claim);
    await expect(claimOperation(t.db, entry, provider.instance.id, claim)).rejects.toMatchObject({ code: 'STATUS_OPERATION_IN_PROGRESS' });
    expect(await settleEntry(t.db, entry.id, true, { pendingSince: new Date(first.pendingSince!.getTime() - 1) })).toBeUndefined();
    expect(await entryRow(t, entry.id)).toMatchObject({ pendingSince: first.pendingSince, version: 1 });
  });

  it('a claim on a VC instance that is gone: STATUS_METADATA_UNAVAILABLE, nothing claimed', async () => {
    const entry = await freshEntry();
    await expect(claimOperation(t.db, entry, 'no-such-instance', claim)).rejects.toMatchObject({ code: 'STATUS_METADATA_UNAVAILABLE' });
    expect(await entryRow(t, entry.id)).toMatchObject({ pendingSince: null });
  });
});
