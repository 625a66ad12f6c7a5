import { identifierGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { identifiersApp } from './index.ts';

/** Edge entry (wrangler env `identifiers`): this group alone, behind the shared platform. */
export default edgeFunction(identifiersApp, { path: '/api/v1/identifiers', guarded: true, graph: identifierGraph });
