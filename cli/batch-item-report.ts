import type { BatchItemRow, BatchRow } from '../core/batches/batch-repository.ts';

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
