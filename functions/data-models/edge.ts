import { edgeFunction } from '../platform/edge-function.ts';
import { dataModelsApp } from './index.ts';

/** Edge entry (wrangler env `data-models`): this group alone, behind the shared platform; templates are sanitised in the request. */
export default edgeFunction(dataModelsApp, { path: '/api/v1/data-models', guarded: true });
