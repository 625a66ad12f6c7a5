import { masterDataGraph } from '../../db/relational-graphs.ts';
import { createConsoleShell } from '../console/console-shell.ts';
import { registerIdentifierPages } from '../console/master-data/identifier-kinds.ts';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Console edge entry for the identifier, scheme and registrar pages (wrangler env `console-registry`): a scheme's
 * pattern is checked on RE2 (re2js) for the same verdicts as on Node, too large to share the console entry's
 * bundle. Its routes `/console/identifiers*`, `/console/schemes*` and `/console/registrars*` are more specific
 * than the console entry's `/console*`, so they win; the assets stay with the console entry. Its graph is the
 * master-data one: the master pages' shared kinds module brings the organisation, facility and product code along.
 */
export default edgeFunction(createConsoleShell([registerIdentifierPages]), { path: '/console', guarded: false, graph: masterDataGraph });
