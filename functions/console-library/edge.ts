import { sqlJobQueue } from '../../core/jobs/sql-job-queue.ts';
import { createConsoleShell } from '../console/console-shell.ts';
import { registerLibraryPages } from '../console/library/library-pages.tsx';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Console edge entry for the library of received credentials (wrangler env `console-library`): it does not fit
 * the console entry's bundle, nor the DID entry's, within the 500 KB budget. Its route `/console/library*` is more
 * specific than the console entry's `/console*`, so it wins; re-verification jobs are queued with plain SQL, as
 * the library API does at the edge; the assets stay with the console entry.
 */
export default edgeFunction(createConsoleShell([registerLibraryPages]), { path: '/console', guarded: false, jobs: sqlJobQueue });
