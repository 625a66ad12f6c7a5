import { masterDataGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { productsApp } from './index.ts';

/** Edge entry (wrangler env `products`): this group alone, behind the shared platform. */
export default edgeFunction(productsApp, { path: '/api/v1/products', guarded: true, graph: masterDataGraph });
