import { edgeFunction } from '../platform/edge-function.ts';
import { cvcApp } from './index.ts';

/** Edge entry (wrangler env `cvc`): the read-only conformity catalogue. */
export default edgeFunction(cvcApp, { path: '/api/v1/cvc', guarded: true });
