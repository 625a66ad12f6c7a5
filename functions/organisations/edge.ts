import { masterDataGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { organisationsApp } from './index.ts';

/** Edge entry (wrangler env `organisations`): this group alone, behind the shared platform. */
export default edgeFunction(organisationsApp, { path: '/api/v1/organisations', guarded: true, graph: masterDataGraph });
