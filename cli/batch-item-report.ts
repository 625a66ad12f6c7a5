import type { BatchItemRow, BatchRow } from '../core/batches/batch-repository.ts';
import type { ItemTrace } from '../core/batches/item-trace.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : '-');
const text = (v: string | number | null) => (v === null ? '-' : String(v));

/** What inspect prints about an item and its batch, one `name: value` line each. */
export const itemReport = (batch: BatchRow, item: BatchItemRow): string[] => [
  `batch: ${batch.id}`,
  `batchState: ${batch.state}`,
  `batchVersion: ${batch.version}`,
  `batchCreatedAt: ${iso(batch.createdAt)}`,
  `batchLastProgressAt: ${iso(batch.lastProgressAt)}`,
  `batchCancelRequestedAt: ${iso(batch.cancelRequestedAt)}`,
  `batchSettledAt: ${iso(batch.settledAt)}`,
  `batchResolvedAt: ${iso(batch.resolvedAt)}`,
  `batchExpiresAt: ${iso(batch.expiresAt)}`,
  `batchRequestDigest: ${batch.bodyDigest}`,
  `batchCorrelationId: ${batch.correlationId}`,
  `index: ${item.index}`,
  `itemState: ${item.state}`,
  `itemReference: ${text(item.reference)}`,
  `itemCorrelationId: ${item.correlationId}`,
  `credentialId: ${text(item.credentialId)}`,
  `error: ${item.errorCode ? `${item.errorCode}: ${item.errorMessage ?? ''}`.trim() : '-'}`,
  `attempts: ${item.attemptCount}`,
  `itemCreatedAt: ${iso(item.createdAt)}`,
  `itemUpdatedAt: ${iso(item.updatedAt)}`,
  `nextAttemptAt: ${iso(item.nextAttemptAt)}`,
  `resolutionReason: ${text(item.resolutionReason)}`,
  `resolutionEvidence: ${text(item.resolutionEvidence)}`,
  `resolvedAt: ${iso(item.resolvedAt)}`,
];

/** One line of state for resolve's before and after. */
export const stateLine = (label: 'before' | 'after', batch: BatchRow, item: BatchItemRow): string =>
  `${label}: item ${item.state}${item.credentialId ? ` credentialId=${item.credentialId}` : ''}, batch ${batch.state} version ${batch.version}` +
  (batch.expiresAt ? ` expiresAt=${batch.expiresAt.toISOString()}` : '');

/** yes when found; no when every instance answered and none had it; unknown when one could not answer. */
const verdict = (found: number, trace: ItemTrace) => (found > 0 ? 'yes' : trace.unanswered.length > 0 ? 'unknown' : 'no');

/**
 * What the VC and storage services say they did for an unknown item: signed? (signatures and status
 * entries under its correlation id), stored? (where, and whether the object is still there).
 */
export const traceReport = (trace: ItemTrace): string[] => [
  `traceAsked: ${trace.asked.vc} VC and ${trace.asked.storage} storage instance(s)`,
  `signed: ${verdict(trace.signatures.length, trace)}`,
  ...trace.signatures.map((s) => `signature: issuer=${s.issuer} credentialId=${s.credentialId ?? '-'} payloadDigest=${s.payloadDigest ?? '-'} at=${s.createdAt}`),
  `statusEntries: ${trace.statusEntries.length}`,
  ...trace.statusEntries.map((e) => `statusEntry: ${e.statusEntry ?? '-'} at=${e.createdAt}`),
  `stored: ${verdict(trace.objects.filter((o) => o.exists).length, trace)}`,
  ...trace.objects.map((o) => `storedObject: ${o.uri} visibility=${o.visibility} exists=${o.exists ? 'yes' : 'no (deleted)'} at=${o.storedAt}`),
  ...trace.unanswered.map((line) => `traceUnanswered: ${line}`),
];
