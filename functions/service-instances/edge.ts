import { edgeFunction } from '../platform/edge-function.ts';
import { serviceInstancesApp } from './index.ts';

/** Edge entry (wrangler env `service-instances`): this group alone, behind the shared platform. */
export default edgeFunction(serviceInstancesApp, { path: '/api/v1/services', guarded: true });
