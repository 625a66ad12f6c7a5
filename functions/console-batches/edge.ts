import { sqlJobQueue } from '../../core/jobs/sql-job-queue.ts';
import { masterDataGraph } from '../../db/relational-graphs.ts';
import { registerBatchPages } from '../console/batches/batch-pages.tsx';
import { createConsoleShell } from '../console/console-shell.ts';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Console edge entry for the batch pages (wrangler env `console-batches`): upload a CSV or JSON file, follow and
 * cancel a batch. Its route `/console/batches*` is more specific than the console entry's `/console*`, so it wins.
 * The uploaded text is parsed by papaparse without its Node-stream input (scripts/edge-bundle.ts); the batch's jobs
 * are queued with plain SQL, as the batch API does at the edge, and the Node worker issues them. Each row's
 * organisation, facility and product are read through the master-data graph, as on the console entry.
 */
export default edgeFunction(createConsoleShell([registerBatchPages]), { path: '/console', guarded: false, graph: masterDataGraph, jobs: sqlJobQueue });
