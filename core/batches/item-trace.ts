import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import type { CorrelatedObject } from '../adapters/storage/storage-adapter.ts';
import type { CorrelatedEvent } from '../adapters/vc/vc-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { storageAdapterFor } from '../service-instances/storage-instance.ts';
import { visibleTo } from '../tenancy/visibility.ts';
import { vcAdapterFor } from '../dids/vc-instance.ts';

/** Most service instances one trace asks (the tenant's own and the system defaults). */
export const MAX_TRACED_INSTANCES = 10;

/** What the VC and storage services say they did under an item's correlation id. */
export interface ItemTrace {
  signatures: CorrelatedEvent[];
  statusEntries: CorrelatedEvent[];
  /** Each with the storage instance that holds it. */
  objects: (CorrelatedObject & { instanceId: string })[];
  /** Instances that could not answer (down, or a service that keeps no correlation records), one line each. */
  unanswered: string[];
  /** VC and storage instances asked. */
  asked: { vc: number; storage: number };
}

export interface TraceDeps {
  db: Queryable;
  box: SecretBox;
  fetcher: Fetcher;
}

/** The VC and storage instances visible to a tenant (its own first, then the system's), at most MAX_TRACED_INSTANCES. */
export const tracedInstances = (db: Queryable, tenantId: string) =>
  db
    .select()
    .from(serviceInstances)
    .where(and(inArray(serviceInstances.serviceType, ['VC', 'STORAGE']), visibleTo(serviceInstances.tenantId, tenantId)))
    .orderBy(asc(serviceInstances.createdAt), asc(serviceInstances.id))
    .limit(MAX_TRACED_INSTANCES);

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Asks every VC and storage instance the tenant can use what it did under `correlationId`: the
 * services record it for each signature, status entry and stored object (an item's id is
 * `<batch correlation id>-<index>`). One instance that cannot answer does not stop the others.
 */
export const traceCorrelation = async (deps: TraceDeps, tenantId: string, correlationId: string): Promise<ItemTrace> => {
  const trace: ItemTrace = { signatures: [], statusEntries: [], objects: [], unanswered: [], asked: { vc: 0, storage: 0 } };
  const instances = await tracedInstances(deps.db, tenantId);
  const plain = { box: deps.box, fetcher: deps.fetcher };
  await Promise.all(
    instances.map(async (instance) => {
      try {
        if (instance.serviceType === 'VC') {
          trace.asked.vc += 1;
          const events = await (await vcAdapterFor(plain, instance)).adapter.correlatedEvents(correlationId);
          trace.signatures.push(...events.filter((e) => e.kind === 'signature'));
          trace.statusEntries.push(...events.filter((e) => e.kind === 'status-entry'));
        } else {
          trace.asked.storage += 1;
          const objects = await (await storageAdapterFor(plain, instance.configEncrypted)).findByCorrelation(correlationId);
          trace.objects.push(...objects.map((o) => ({ ...o, instanceId: instance.id })));
        }
      } catch (error) {
        trace.unanswered.push(`${instance.serviceType} instance ${instance.id}: ${why(error)}`);
      }
    }),
  );
  trace.unanswered.sort();
  return trace;
};
