import { edgeFunction } from '../platform/edge-function.ts';
import { healthApp } from './index.ts';

/** Edge entry (wrangler env `health`): public liveness with a database check. */
export default edgeFunction(healthApp, { path: '/api/health', guarded: false });
