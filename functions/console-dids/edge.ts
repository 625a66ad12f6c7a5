import { createConsoleShell } from '../console/console-shell.ts';
import { registerDidPages } from '../console/dids/did-pages.tsx';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Console edge entry for the DID pages (wrangler env `console-dids`): they do not fit the console entry's
 * bundle beside its own pages (500 KB budget). Its route `/console/dids*` is more specific than the console
 * entry's `/console*`, so it wins; the assets stay with the console entry.
 */
export default edgeFunction(createConsoleShell([registerDidPages]), { path: '/console', guarded: false });
