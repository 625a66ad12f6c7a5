import { edgeFunction } from '../platform/edge-function.ts';
import { verifyPageApp } from './index.ts';

/**
 * Edge entry (wrangler env `verify-page`): the public verification page, its assets (inlined into the bundle
 * at build time, scripts/edge-bundle.ts) and its template route, behind the shared platform; nothing here
 * needs a token or session.
 */
export default edgeFunction(verifyPageApp, { path: '/verify', guarded: false });
