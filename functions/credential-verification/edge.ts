import { edgeFunction } from '../platform/edge-function.ts';
import { credentialVerificationApp } from './index.ts';

/** Edge entry (wrangler env `credential-verification`): this group alone, behind the shared platform. */
export default edgeFunction(credentialVerificationApp, { path: '/api/v1/credentials/verify', guarded: false });
