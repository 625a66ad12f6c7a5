import { identifierGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { schemesApp } from './index.ts';

/** Edge entry (wrangler env `schemes`): this group alone, behind the shared platform. */
export default edgeFunction(schemesApp, { path: '/api/v1/schemes', guarded: true, graph: identifierGraph });
