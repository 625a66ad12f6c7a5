import { edgeFunction } from '../platform/edge-function.ts';
import { servicesApp } from './index.ts';

/** Edge entry (wrangler env `services`): this group alone, behind the shared platform. */
export default edgeFunction(servicesApp, { path: '/api/v1/services', guarded: true });
