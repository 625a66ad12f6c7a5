import { SecretBox } from '../../core/crypto/secret-box.ts';
import { findTenantBatch, findTenantBatchItem, lockTenantBatch, transitionItem, type BatchRow } from '../../core/batches/batch-repository.ts';
import { settleIfDone } from '../../core/batches/batch-settlement.ts';
import type { Database } from '../../db/client.ts';
import { createId } from '../../db/ids.ts';
import { credentialBatches, credentialBatchItems, type BatchItemState } from '../../db/schema/credential-batches.ts';
import { credentials, libraryRecords } from '../../db/schema/credentials.ts';
import { tenants } from '../../db/schema/tenants.ts';
import { TEST_ENCRYPTION_KEY } from './test-settings.ts';

/** Batch rows for the operator commands' tests, moved into their states by the core repository as the worker moves them. */
const testBox = () => new SecretBox(TEST_ENCRYPTION_KEY);

export const insertTenant = async (db: Database, name = 'Tenant'): Promise<string> => {
  const [row] = await db.insert(tenants).values({ name }).returning({ id: tenants.id });
  return row!.id;
};

/** A credential issued here for `tenantId` (library record and credential row). */
export const insertCredential = async (db: Database, tenantId: string): Promise<string> => {
  const id = createId();
  await db.insert(libraryRecords).values({ id, tenantId, origin: 'NATIVE', credentialType: 'DigitalProductPassport' });
  await db.insert(credentials).values({
    id,
    tenantId,
    credentialType: 'DigitalProductPassport',
    version: '0.6.0',
    issuerDid: 'did:web:issuer.example.com',
    storageUri: `https://storage.example.com/${id}.json`,
    storageExternalId: id,
    digestMultibase: 'zQmTestDigest',
    encrypted: false,
    statusCapture: 'NONE',
  });
  return id;
};

export interface TestBatch {
  batch: BatchRow;
  /** The plaintext request of each item, by index. */
  requests: Record<string, unknown>[];
}

/**
 * A batch of `finals.length` items, submitted (QUEUED), then each item claimed (PROCESSING) and moved
 * to its final state by the core repository, and the batch settled as the worker settles it: any
 * OUTCOME_UNKNOWN item leaves it NEEDS_ATTENTION. `settle: false` leaves it RUNNING.
 */
export const insertBatch = async (
  db: Database,
  tenantId: string,
  finals: BatchItemState[],
  options: { settle?: boolean; credentialIds?: (string | null)[] } = {},
): Promise<TestBatch> => {
  const box = testBox();
  const requests = finals.map((_, i) => ({ credentialType: 'DigitalProductPassport', credentialPayload: { name: `secret product ${i}` } }));
  const batchId = createId();
  await db.insert(credentialBatches).values({
    id: batchId,
    tenantId,
    correlationId: `batch-correlation-${batchId}`,
    state: 'RUNNING',
    itemCount: finals.length,
    queuedCount: finals.length,
    idempotencyKey: `key-${batchId}`,
    bodyDigest: `sha256-${batchId}`,
  });
  for (const [index, request] of requests.entries()) {
    await db.insert(credentialBatchItems).values({
      batchId,
      tenantId,
      index,
      reference: `ref-${index}`,
      sealedRequest: await box.encrypt(JSON.stringify(request)),
      correlationId: `item-correlation-${index}`,
    });
  }
  await db.transaction(async (tx) => {
    for (const [index, final] of finals.entries()) {
      if (final === 'QUEUED') continue;
      const item = (await findTenantBatchItem(tx, tenantId, batchId, index))!;
      await transitionItem(tx, { batchId, itemId: item.id, from: ['QUEUED'], to: 'PROCESSING', set: { attemptCount: 1 } });
      if (final === 'PROCESSING') continue;
      const credentialId = options.credentialIds?.[index] ?? null;
      await transitionItem(tx, {
        batchId,
        itemId: item.id,
        from: ['PROCESSING'],
        to: final,
        set: final === 'FAILED' ? { errorCode: 'ISSUER_DID_NOT_REGISTERED', errorMessage: 'The issuer DID is not registered.' } : { credentialId },
      });
    }
    if (options.settle !== false) await settleIfDone(tx, (await lockTenantBatch(tx, tenantId, batchId))!, 30);
  });
  return { batch: (await findTenantBatch(db, tenantId, batchId))!, requests };
};

/** A late worker write: any state change of the batch bumps its version (as a reconciliation pass would). */
export const lateWorkerWrite = async (db: Database, tenantId: string, batchId: string, index: number): Promise<void> => {
  await db.transaction(async (tx) => {
    const item = (await findTenantBatchItem(tx, tenantId, batchId, index))!;
    await transitionItem(tx, { batchId, itemId: item.id, from: [item.state], to: item.state, set: { warnings: { late: true } } });
  });
};
