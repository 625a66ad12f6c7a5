import { masterDataGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { createConsoleApp } from './console-app.ts';

/**
 * Edge entry (wrangler env `console`, route `/console*`): the dashboard, credentials, organisations, facilities,
 * products and the assets. The DID and library pages have edge entries of their own (functions/console-dids,
 * functions/console-library: the three do not fit one 500 KB bundle). Route to the Node web process: issuance
 * (its bundle is over the budget), batches (papaparse needs Node's stream), templates (sanitize-html) and the
 * identifier, scheme and registrar pages (RE2), each over the budget beside the console's own code. The session
 * check runs inside the group (a missing session is a redirect to sign-in), so the platform's guard is off here.
 */
export default edgeFunction(createConsoleApp(), { path: '/console', guarded: false, graph: masterDataGraph });
