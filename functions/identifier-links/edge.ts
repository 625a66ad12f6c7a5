import { identifierGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { identifierLinksApp } from './index.ts';

/**
 * Edge entry (wrangler env `identifier-links`): the link routes alone, behind the shared platform. It has no zone
 * route: `/identifiers/{id}/links…` sits inside the identifiers prefix (route patterns match prefixes only), so a
 * gateway reaches it by service binding; behind zone routes the identifiers entry, which carries the same routes,
 * serves them.
 */
export default edgeFunction(identifierLinksApp, { path: '/api/v1/identifiers', guarded: true, graph: identifierGraph });
