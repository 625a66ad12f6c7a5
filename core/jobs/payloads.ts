import * as z from 'zod';
import { QUEUE_NAMES, type QueueName } from './queues.ts';

const id = z.string().min(1).max(64);
/** Scheduled sweeps carry nothing: they work on whatever is due. */
const sweep = z.strictObject({});

/** One schema per queue: what a producer may enqueue and what a consumer may trust after parsing. */
const JOB_PAYLOADS = {
  [QUEUE_NAMES.verifyGeneration]: z.strictObject({ tenantId: id, recordId: id, generation: z.int().min(1) }),
  [QUEUE_NAMES.reconcilePendingRuns]: sweep,
  [QUEUE_NAMES.issueBatch]: z.strictObject({ tenantId: id, batchId: id }),
  [QUEUE_NAMES.reconcileBatches]: sweep,
  [QUEUE_NAMES.expireBatches]: sweep,
} satisfies Record<QueueName, z.ZodType>;

export type JobPayload<Q extends QueueName> = z.infer<(typeof JOB_PAYLOADS)[Q]>;

/** A job as a producer hands it over: its queue and a payload of that queue's shape. */
export type Job = { [Q in QueueName]: { queue: Q; payload: JobPayload<Q> } }[QueueName];

/** Parses a payload for its queue; a wrong shape throws a ZodError naming the field. */
export const parseJobPayload = <Q extends QueueName>(queue: Q, payload: unknown): JobPayload<Q> =>
  JOB_PAYLOADS[queue].parse(payload) as JobPayload<Q>;
