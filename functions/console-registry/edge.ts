import { masterDataGraph } from '../../db/relational-graphs.ts';
import { createConsoleShell } from '../console/console-shell.ts';
import { registerIdentifierPages } from '../console/master-data/identifier-kinds.ts';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Console edge entry for the identifier, scheme and registrar pages (wrangler env `console-registry`): a scheme's
 * pattern is checked on RE2 (re2js) for the same verdicts as on Node. RE2 once made these pages too large to share
 * the console entry's bundle; it now loads on first use (core/schemes/patterns.ts), and the console entry with these
 * pages measured 470 KB, so they could join it. Its routes `/console/identifiers*`, `/console/schemes*` and `/console/registrars*` are more specific
 * than the console entry's `/console*`, so they win; the assets stay with the console entry. Its graph is the
 * master-data one: the master pages' shared kinds module brings the organisation, facility and product code along.
 */
export default edgeFunction(createConsoleShell([registerIdentifierPages]), { path: '/console', guarded: false, graph: masterDataGraph });
