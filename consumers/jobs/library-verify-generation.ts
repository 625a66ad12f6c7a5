import { domainDeps } from '../../core/deps.ts';
import { QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { runGeneration } from '../../core/library/run-generation.ts';
import { defineConsumer } from '../consumer.ts';

/** library.verify-generation: verifies one pending generation of a library record and settles it. */
export const libraryVerifyGeneration = defineConsumer({
  queue: QUEUE_NAMES.verifyGeneration,
  handle: (deps, job) => runGeneration(domainDeps(deps), job.payload),
});
