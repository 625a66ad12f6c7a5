import { edgeFunction } from '../platform/edge-function.ts';
import { registrarsApp } from './index.ts';

/** Edge entry (wrangler env `registrars`): this group alone, behind the shared platform. */
export default edgeFunction(registrarsApp, { path: '/api/v1/registrars', guarded: true });
