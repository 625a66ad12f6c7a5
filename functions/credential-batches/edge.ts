import { edgeFunction } from '../platform/edge-function.ts';
import { credentialBatchesApp } from './index.ts';

/** Edge entry (wrangler env `credential-batches`): this group alone, behind the shared platform. */
export default edgeFunction(credentialBatchesApp, { path: '/api/v1/credentials/batches', guarded: true });
