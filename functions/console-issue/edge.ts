import { masterDataGraph } from '../../db/relational-graphs.ts';
import { createConsoleShell } from '../console/console-shell.ts';
import { registerIssuePages } from '../console/issue/issue-pages.tsx';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Console edge entry for the issue pages (wrangler env `console-issue`, route `/console/issue*`): the form, its
 * pickers, the preview and issuance itself, with the same payload checks as the API's issuance. Issuance's large and
 * rarely needed parts are modules loaded on first use beside the bundle (scripts/edge-bundle.ts: RE2, JSON-LD
 * expansion, the QR encoder, the sanitiser, the bundled artefacts), so its start-up code stays within the budget.
 * Its route is more specific than the console entry's `/console*`, so it wins; the assets stay with the console
 * entry. Its graph is the master-data one: the pickers list organisations, facilities and products with their
 * identifiers, and publishing at issuance reads the identifier with its scheme.
 */
export default edgeFunction(createConsoleShell([registerIssuePages]), { path: '/console', guarded: false, graph: masterDataGraph });
