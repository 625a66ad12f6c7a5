import { sqlJobQueue } from '../../core/jobs/sql-job-queue.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { libraryApp } from './index.ts';

/** Edge entry (wrangler env `library`): this group alone, behind the shared platform; it queues jobs with plain SQL. */
export default edgeFunction(libraryApp, { path: '/api/v1/library', guarded: true, jobs: sqlJobQueue });
