import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { createId } from '../../db/ids.ts';
import { credentialBatches, credentialBatchItems } from '../../db/schema/credential-batches.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { isUniqueViolation, violatedConstraint } from '../db-errors.ts';
import { ApiError, badRequest } from '../errors.ts';
import { bodyDigest } from '../idempotency/idempotency-key.ts';
import { insertInSteps, mapInSteps, yieldToOthers } from '../limits/bounded-steps.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { QUEUE_NAMES } from '../jobs/queues.ts';
import type { BatchSubmissionSettings } from '../settings/batch-submission-settings.ts';
import { batchTooLarge } from './batch-limits.ts';
import { batchExpired } from './cancel-batch.ts';
import type { BatchRow } from './batch-repository.ts';

const MAX_REFERENCE_CHARS = 200;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** One item ready to store: the request as submitted (minus `reference`) and the issuer's label. */
interface AcceptedItem {
  request: Record<string, unknown>;
  reference: string | null;
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * The body of a submission (peer §3.1): `{ items: [...] }`, non-empty, at most MAX_BATCH_ITEMS
 * (400 BATCH_TOO_LARGE), each item an object whose compact JSON fits MAX_REQUEST_BODY_BYTES, with
 * an optional `reference` (1–200 characters, no control characters, unique in the batch), and
 * otherwise exactly a single issuance request (`validateItem`, which throws 400 `items[i].field: …`).
 * The count is checked before any item; items are validated in steps of ITEMS_PER_STEP, yielding between.
 */
/** Items validated (or sealed) between two yields to the event loop: a large batch never holds the request thread for long. */
const ITEMS_PER_STEP = 20;
/**
 * Item rows per INSERT: each carries its sealed request (an item may be up to MAX_REQUEST_BODY_BYTES), so
 * fewer rows than elsewhere keep building one statement's parameters a bounded step.
 */
const ROWS_PER_INSERT = 50;

const acceptBatchItems = async (
  body: unknown,
  limits: { maxItems: number; maxItemBytes: number },
  validateItem: (item: unknown, prefix: string) => void,
): Promise<AcceptedItem[]> => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body: must be a JSON object');
  const items = (body as { items?: unknown }).items;
  if (items === undefined) throw badRequest('items: is required');
  if (!Array.isArray(items)) throw badRequest('items: must be an array');
  if (items.length === 0) throw badRequest('items: must contain at least one item');
  if (items.length > limits.maxItems) throw batchTooLarge(limits.maxItems, items.length);
  const firstWithReference = new Map<string, number>();
  const accepted: AcceptedItem[] = [];
  for (const [i, item] of items.entries()) {
    if (i > 0 && i % ITEMS_PER_STEP === 0) await yieldToOthers();
    const at = `items[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw badRequest(`${at}: must be a JSON object`);
    const size = utf8Bytes(JSON.stringify(item));
    if (size > limits.maxItemBytes) throw badRequest(`${at}: is ${size} bytes as compact JSON; an item may be at most ${limits.maxItemBytes} bytes`);
    const { reference, ...request } = item as Record<string, unknown>;
    if (reference !== undefined) {
      if (typeof reference !== 'string') throw badRequest(`${at}.reference: must be a string`);
      if (reference.trim().length === 0) throw badRequest(`${at}.reference: must contain a non-whitespace character`);
      if (reference.length > MAX_REFERENCE_CHARS) throw badRequest(`${at}.reference: must be at most ${MAX_REFERENCE_CHARS} characters`);
      if (CONTROL.test(reference)) throw badRequest(`${at}.reference: must not contain control characters`);
      const first = firstWithReference.get(reference);
      if (first !== undefined) throw badRequest(`${at}.reference: must be unique within the batch; duplicates items[${first}].reference`);
      firstWithReference.set(reference, i);
    }
    validateItem(request, at);
    accepted.push({ request, reference: (reference as string | undefined) ?? null });
  }
  return accepted;
};

export interface SubmissionDeps {
  db: Database;
  box: SecretBox;
  jobs: JobQueue;
  settings: BatchSubmissionSettings & { maxItemBytes: number };
}

export interface Submission {
  tenantId: string;
  idempotencyKey: string;
  correlationId: string;
  body: unknown;
  validateItem: (item: unknown, prefix: string) => void;
}

const findBySubmissionKey = async (db: Database, tenantId: string, key: string): Promise<BatchRow | undefined> => {
  const [row] = await db
    .select()
    .from(credentialBatches)
    .where(and(eq(credentialBatches.tenantId, tenantId), eq(credentialBatches.idempotencyKey, key)));
  return row;
};

/** A key used before: the same body replays the batch, another body is refused, an expired batch answers 410. */
const replay = async (db: Database, existing: BatchRow, digest: string): Promise<{ batchId: string }> => {
  if (existing.bodyDigest !== digest) {
    throw new ApiError(422, 'Idempotency-Key: was already used for a different batch body', 'IDEMPOTENCY_KEY_MISMATCH');
  }
  if (existing.state === 'EXPIRED') throw await batchExpired(db, existing);
  return { batchId: existing.id };
};

/**
 * Accepts a batch (spec "Batch state", first row): validates every item, then writes the batch,
 * the item requests sealed with DATA_ENCRYPTION_KEY and the first `credentials.issue-batch` job
 * in one transaction. Idempotent by submission key (unique per tenant) and body digest.
 */
export const submitBatch = async (deps: SubmissionDeps, s: Submission): Promise<{ batchId: string; replayed: boolean }> => {
  const digest = await bodyDigest(s.body);
  const existing = await findBySubmissionKey(deps.db, s.tenantId, s.idempotencyKey);
  if (existing) return { ...(await replay(deps.db, existing, digest)), replayed: true };

  const items = await acceptBatchItems(s.body, { maxItems: deps.settings.maxItems, maxItemBytes: deps.settings.maxItemBytes }, s.validateItem);
  const batchId = createId();
  const rows = await mapInSteps(items, ITEMS_PER_STEP, async (item, index) => ({
    batchId,
    tenantId: s.tenantId,
    index,
    reference: item.reference,
    sealedRequest: await deps.box.encryptJson(item.request),
    correlationId: `${s.correlationId}-${index}`,
  }));
  try {
    await deps.db.transaction(async (tx) => {
      await tx.insert(credentialBatches).values({
        id: batchId,
        tenantId: s.tenantId,
        correlationId: s.correlationId,
        itemCount: items.length,
        queuedCount: items.length,
        idempotencyKey: s.idempotencyKey,
        bodyDigest: digest,
      });
      await insertInSteps(tx, credentialBatchItems, rows, ROWS_PER_INSERT);
      await deps.jobs.enqueue(
        tx,
        { queue: QUEUE_NAMES.issueBatch, payload: { tenantId: s.tenantId, batchId } },
        { expireInSeconds: deps.settings.jobTimeoutSeconds },
      );
    });
  } catch (error) {
    // The same key submitted concurrently: the first to commit wins, the other replays it.
    if (!isUniqueViolation(error) || violatedConstraint(error) !== 'credential_batches_submission_uq') throw error;
    const winner = await findBySubmissionKey(deps.db, s.tenantId, s.idempotencyKey);
    if (!winner) throw error;
    return { ...(await replay(deps.db, winner, digest)), replayed: true };
  }
  return { batchId, replayed: false };
};
