import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialBatchItems } from '../../db/schema/credential-batches.ts';
import { credentials, credentialStatusEntries } from '../../db/schema/credentials.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { createStorageAdapter, type StorageAdapter, type StorageConfig } from '../adapters/storage/storage-adapter.ts';
import { createVcAdapter, type VcAdapter, type VcConfig } from '../adapters/vc/vc-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Fetcher } from '../net/fetcher.ts';

/** Item states whose outcome is still open: their copies and entries wait for the worker or the operator. */
const OPEN_ITEM_STATES = ['QUEUED', 'PROCESSING', 'OUTCOME_UNKNOWN'] as const;
/** Most pages read from one service in one run (200 each): a bound, not a target. */
const MAX_PAGES = 500;

export interface Orphan {
  kind: 'stored-copy' | 'status-entry';
  instanceId: string;
  /** The object's URI, or the entry's `<list url>#<index>`. */
  ref: string;
  correlationId: string;
  at: string;
  /** The batch item of that correlation id while its outcome is open: then the orphan is held, never removed. */
  heldBy?: string;
  /** What removal needs. */
  target: { bucket: string; key: string } | { issuer: string; purpose: string; list: string; index: number };
}

export interface OrphanSweep {
  orphans: Orphan[];
  /** Instances that could not be read (down, or a service that keeps no correlation records). */
  unanswered: string[];
}

export interface OrphanDeps {
  db: Queryable;
  box: SecretBox;
  fetcher: Fetcher;
}

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The open item (`<batch id> index <n> <state>`) of each correlation id that has one. */
const openItems = async (db: Queryable, correlationIds: string[]): Promise<Map<string, string>> => {
  if (correlationIds.length === 0) return new Map();
  const rows = await db
    .select({ correlationId: credentialBatchItems.correlationId, batchId: credentialBatchItems.batchId, index: credentialBatchItems.index, state: credentialBatchItems.state })
    .from(credentialBatchItems)
    .where(and(inArray(credentialBatchItems.correlationId, correlationIds), inArray(credentialBatchItems.state, [...OPEN_ITEM_STATES])));
  return new Map(rows.map((r) => [r.correlationId, `batch ${r.batchId} index ${r.index} ${r.state}`]));
};

const storedCopies = async (deps: OrphanDeps, instanceId: string, adapter: StorageAdapter, cutoff: string): Promise<Orphan[]> => {
  const found: Orphan[] = [];
  for (const bucket of adapter.buckets()) {
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { objects, next } = await adapter.listCorrelated(bucket, after);
      const candidates = objects.filter((o) => o.exists && o.storedAt < cutoff);
      const owned = candidates.length
        ? new Set((await deps.db.select({ uri: credentials.storageUri }).from(credentials).where(inArray(credentials.storageUri, candidates.map((o) => o.uri)))).map((r) => r.uri))
        : new Set<string>();
      for (const o of candidates) {
        if (owned.has(o.uri)) continue;
        found.push({ kind: 'stored-copy', instanceId, ref: o.uri, correlationId: o.correlationId, at: o.storedAt, target: { bucket: o.bucket, key: o.key } });
      }
      if (!next) break;
      after = next;
    }
  }
  return found;
};

const statusEntries = async (deps: OrphanDeps, instanceId: string, adapter: VcAdapter, cutoff: string): Promise<Orphan[]> => {
  const found: Orphan[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { entries, next } = await adapter.listStatusEntries(after);
    // A set bit is an entry already retired (or revoked by its owner, who is then found below anyway).
    const candidates = entries.filter((e) => e.bitSet === false && e.statusPurpose !== null && e.createdAt < cutoff);
    for (const e of candidates) {
      const hash = e.statusEntry.lastIndexOf('#');
      const list = e.statusEntry.slice(0, hash);
      const index = e.statusEntry.slice(hash + 1);
      const [owner] = await deps.db
        .select({ id: credentialStatusEntries.id })
        .from(credentialStatusEntries)
        .where(and(eq(credentialStatusEntries.statusListCredential, list), eq(credentialStatusEntries.statusListIndex, index)))
        .limit(1);
      if (owner) continue;
      found.push({
        kind: 'status-entry',
        instanceId,
        ref: e.statusEntry,
        correlationId: e.correlationId,
        at: e.createdAt,
        target: { issuer: e.issuer, purpose: e.statusPurpose!, list, index: Number(index) },
      });
    }
    if (!next) break;
    after = next;
  }
  return found;
};

/**
 * Stored copies and status entries that the VC and storage services made under a correlation id
 * and that no credential record owns (no record has that storage URI, or that list and index), older
 * than `olderThanMinutes` (an attempt in flight owns its copies before it records them). Every VC and
 * storage instance is read; an orphan whose batch item is still open is marked held.
 */
export const findOrphans = async (deps: OrphanDeps, options: { olderThanMinutes: number; now?: Date }): Promise<OrphanSweep> => {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.olderThanMinutes * 60_000).toISOString();
  const instances = await deps.db
    .select()
    .from(serviceInstances)
    .where(inArray(serviceInstances.serviceType, ['VC', 'STORAGE']))
    .orderBy(serviceInstances.id);
  const sweep: OrphanSweep = { orphans: [], unanswered: [] };
  // Two instances naming one service (a tenant's own beside the system's) are read once.
  const seen = new Set<string>();
  for (const instance of instances) {
    try {
      const config = await deps.box.openConfig(instance.configEncrypted);
      const service = `${instance.serviceType} ${String((config as { baseUrl?: unknown }).baseUrl).replace(/\/+$/, '')}`;
      if (seen.has(service)) continue;
      seen.add(service);
      sweep.orphans.push(
        ...(instance.serviceType === 'VC'
          ? await statusEntries(deps, instance.id, createVcAdapter(config as VcConfig, deps.fetcher), cutoff)
          : await storedCopies(deps, instance.id, createStorageAdapter(config as StorageConfig, deps.fetcher), cutoff)),
      );
    } catch (error) {
      sweep.unanswered.push(`${instance.serviceType} instance ${instance.id}: ${why(error)}`);
    }
  }
  const held = await openItems(deps.db, [...new Set(sweep.orphans.map((o) => o.correlationId))]);
  for (const orphan of sweep.orphans) {
    const item = held.get(orphan.correlationId);
    if (item) orphan.heldBy = item;
  }
  return sweep;
};

/**
 * Removes one orphan: a stored copy is deleted; a status entry is retired by setting its bit (an
 * index cannot be given back; a copy signed with it that surfaces later then reads revoked or
 * suspended). Held orphans are refused by the caller.
 */
export const removeOrphan = async (deps: OrphanDeps, orphan: Orphan): Promise<void> => {
  const [instance] = await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, orphan.instanceId));
  if (!instance) throw new Error(`instance ${orphan.instanceId} no longer exists`);
  const config = await deps.box.openConfig(instance.configEncrypted);
  if ('bucket' in orphan.target) {
    await createStorageAdapter(config as StorageConfig, deps.fetcher).removeObject(orphan.target.bucket, orphan.target.key);
    return;
  }
  const { issuer, purpose, list, index } = orphan.target;
  const entry = { id: orphan.ref, type: 'BitstringStatusListEntry' as const, statusPurpose: purpose, statusListIndex: index, statusListCredential: list };
  const answer = await createVcAdapter(config as VcConfig, deps.fetcher).setStatus(entry, issuer, true);
  if (answer.status !== true) throw new Error(`the VC service did not set the bit of ${orphan.ref}`);
};
