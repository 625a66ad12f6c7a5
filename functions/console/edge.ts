import { edgeFunction } from '../platform/edge-function.ts';
import { consoleApp } from './index.ts';

/**
 * Edge entry (wrangler env `console`): the console's pages. Its session check runs inside the group (a
 * missing session is a redirect to sign-in, not a 401), so the platform's own guard is off here.
 */
export default edgeFunction(consoleApp, { path: '/console', guarded: false });
