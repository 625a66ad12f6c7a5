import { edgeFunction } from '../platform/edge-function.ts';
import { didsApp } from './index.ts';

/** Edge entry (wrangler env `dids`): this group alone, behind the shared platform. */
export default edgeFunction(didsApp, { path: '/api/v1/dids', guarded: true });
