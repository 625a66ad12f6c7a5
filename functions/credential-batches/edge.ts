import { sqlJobQueue } from '../../core/jobs/sql-job-queue.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { credentialBatchesApp } from './index.ts';

/** Edge entry (wrangler env `credential-batches`): this group alone, behind the shared platform; it queues jobs with plain SQL. */
export default edgeFunction(credentialBatchesApp, { path: '/api/v1/credentials/batches', guarded: true, jobs: sqlJobQueue });
