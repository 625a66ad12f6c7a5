import { masterDataGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { facilitiesApp } from './index.ts';

/** Edge entry (wrangler env `facilities`): this group alone, behind the shared platform. */
export default edgeFunction(facilitiesApp, { path: '/api/v1/facilities', guarded: true, graph: masterDataGraph });
