import { edgeFunction } from '../platform/edge-function.ts';
import { authApp } from './index.ts';

/** Edge entry (wrangler env `auth`): browser sign-in, callback and sign-out. */
export default edgeFunction(authApp, { path: '/auth', guarded: false });
