import { edgeFunction } from '../platform/edge-function.ts';
import { credentialStatusApp } from './index.ts';

/** Edge entry (wrangler env `credential-status`): this group alone, behind the shared platform. */
export default edgeFunction(credentialStatusApp, { path: '/api/v1/credentials', guarded: true });
