import { eq } from 'drizzle-orm';
import { credentialStatusEntries, credentials, libraryRecords } from '../../db/schema/index.ts';
import { startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';
import { insertVcInstance, vcAdapterOf } from './did-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * A tenant's own VC instance on the real VC service, with an issuer DID held there: what the status
 * routes need of a credential's provider.
 */
export const statusProviderFixture = async (t: TestApp, tenantId: string, vc: VcService, alias: string) => {
  const instance = await insertVcInstance(t.db, t.services.secretBox, tenantId, vc);
  const { did } = await vcAdapterOf(vc).createDid(alias);
  return { instance, did };
};

/**
 * The app (status mutation on) and the real VC service, tenantA's token and id, and tenantA's provider
 * under `alias`: the setup the status route suites share. Close `t` and stop `vc` after.
 */
export const startStatusRig = async (alias: string) => {
  const [t, vc] = await Promise.all([startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true', CREDENTIAL_STATUS_MUTATION_ENABLED: 'true' } }), startVcService()]);
  const token = await t.token('tenantA');
  await t.call('GET', '/api/v1/services', { token });
  const tenantId = await t.tenantOf('tenantA');
  const provider = await statusProviderFixture(t, tenantId, vc, alias);
  return { t, vc, token, tenantId, provider };
};

/**
 * The records issuance leaves for a credential (library record, credential, one status entry per
 * purpose minted on the real VC service), for states POST /credentials cannot produce: an external
 * record, an unsupported entry, a removed provider. The status rules under test only read these rows.
 */
export const recordCredential = async (
  t: TestApp,
  options: { tenantId: string; vc: VcService; instanceId: string | null; did: string; purposes?: string[]; origin?: 'NATIVE' | 'EXTERNAL' },
) => {
  const [record] = await t.db.insert(libraryRecords).values({ tenantId: options.tenantId, origin: options.origin ?? 'NATIVE' }).returning();
  if (options.origin === 'EXTERNAL') return { id: record!.id, entries: [] };
  await t.db.insert(credentials).values({
    id: record!.id,
    tenantId: options.tenantId,
    credentialType: 'DigitalProductPassport',
    version: '0.6.1',
    issuerDid: options.did,
    vcServiceInstanceId: options.instanceId,
    storageUri: `https://storage.example.com/${record!.id}.json`,
    storageExternalId: record!.id,
    digestMultibase: 'zQmWvQxTqbG2Z9HPJgG57jjwR154cKhbtJenbyYTWkjgF3e',
    encrypted: false,
    statusCapture: 'CAPTURED',
    statusCapturedAt: new Date(),
  });
  const adapter = vcAdapterOf(options.vc);
  const entries = [];
  for (const purpose of options.purposes ?? ['revocation']) {
    const minted = await adapter.mintStatus(options.did, purpose);
    const [entry] = await t.db
      .insert(credentialStatusEntries)
      .values({
        credentialId: record!.id,
        tenantId: options.tenantId,
        statusPurpose: purpose,
        type: minted.type,
        statusListCredential: minted.statusListCredential,
        statusListIndex: String(minted.statusListIndex),
        statusListIssuer: options.did,
        descriptor: minted,
        value: false,
        observedAt: new Date(),
      })
      .returning();
    entries.push(entry!);
  }
  return { id: record!.id, entries };
};

export const entryRow = async (t: TestApp, id: string) => (await t.db.select().from(credentialStatusEntries).where(eq(credentialStatusEntries.id, id)))[0]!;

/** The provider's bit for an entry, read straight from the VC service. */
export const providerBit = async (vc: VcService, entry: typeof credentialStatusEntries.$inferSelect) =>
  (await vcAdapterOf(vc).checkStatus(entry.descriptor as never, entry.statusListIssuer)).revoked;
