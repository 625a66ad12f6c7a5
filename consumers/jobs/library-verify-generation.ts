import { payloadChecksFor } from '../../core/credentials/issuance-deps.ts';
import { domainDeps } from '../../core/deps.ts';
import { QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { runGeneration } from '../../core/library/run-generation.ts';
import { defineConsumer } from '../consumer.ts';

const VERIFY_BATCH = 8;

/** library.verify-generation: verifies one pending generation of a library record and settles it. */
export const libraryVerifyGeneration = defineConsumer({
  queue: QUEUE_NAMES.verifyGeneration,
  // A generation mostly waits on the storage and VC services: several at once keep one worker busy.
  // A repeated job finds its generation settled and does nothing, so a failed batch may run again.
  batchSize: () => VERIFY_BATCH,
  handle: (deps, job) =>
    runGeneration({ ...domainDeps(deps), payloadChecks: payloadChecksFor(deps.fetcher, deps.settings.documents) }, job.payload),
});
