import { edgeFunction } from '../platform/edge-function.ts';
import { libraryApp } from './index.ts';

/** Edge entry (wrangler env `library`): this group alone, behind the shared platform. */
export default edgeFunction(libraryApp, { path: '/api/v1/library', guarded: true });
